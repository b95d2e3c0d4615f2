// Walks the messages and prepares every media part in two rounds: first every part's headers are
// read and checked (no frame decoded) and the caller checks what they declare (the prompt
// estimate), then every part is decoded and converted. Parts run in parallel (each is an
// ffprobe/ffmpeg run, bounded by the media slots); when one fails the others are stopped.
import type { CatalogModel } from '../../catalog/catalog.types';
import { type MediaWork, withSignal } from '../../media';
import type { ChatMessage, ContentPart, InputMediaMeasures } from '../chat.types';
import { assertCaptioningShape, CAPTIONING_CHECKS, isCaptioningModel } from './captioning';
import { isMediaPart, mediaPayloadOf, rewrittenPart, type MediaPayload } from './media-parts';
import { type InspectedMedia, type MediaChecks, type MediaMeasure, inspectMedia } from './prepare-media';

export interface PreparedMessages {
  messages: ChatMessage[];
  media: InputMediaMeasures;
}

/** Called with what the media parts declare, before any of them is decoded; throws to refuse. */
export type DeclaredMediaCheck = (declared: InputMediaMeasures) => void;

interface InspectedPart {
  message: number;
  part: number;
  payload: MediaPayload;
  inspected: InspectedMedia;
}

export async function prepareMessages(
  messages: readonly ChatMessage[],
  model: CatalogModel,
  work?: MediaWork,
  checkDeclared?: DeclaredMediaCheck,
): Promise<PreparedMessages> {
  const captioning = isCaptioningModel(model);
  if (captioning) assertCaptioningShape(messages, model);
  const checks: MediaChecks = captioning ? CAPTIONING_CHECKS : {};
  const stop = new AbortController();
  const stoppable = work ? withSignal(work, stop.signal) : undefined;
  try {
    const parts = await Promise.all(mediaPayloads(messages).map(async ({ message, part, payload }) =>
      ({ message, part, payload, inspected: await inspectMedia(payload, model, checks, stoppable) })));
    checkDeclared?.(measuresOf(parts.flatMap((entry) => (entry.inspected.declared ? [entry.inspected.declared] : []))));
    const prepared = await Promise.all(parts.map(async (entry) => ({ entry, media: await entry.inspected.finish() })));
    return rewritten(messages, prepared);
  } catch (error) {
    // A refused part fails the request: the other parts' children must not outlive it.
    stop.abort();
    throw error;
  }
}

function mediaPayloads(messages: readonly ChatMessage[]): { message: number; part: number; payload: MediaPayload }[] {
  return messages.flatMap((message, index) => {
    if (!Array.isArray(message.content)) return [];
    return message.content.flatMap((part: ContentPart, partIndex: number) =>
      isMediaPart(part) ? [{ message: index, part: partIndex, payload: mediaPayloadOf(part, ['messages', index, 'content', partIndex]) }] : []);
  });
}

function rewritten(messages: readonly ChatMessage[], prepared: { entry: InspectedPart; media: { bytes: Buffer; format: string; measure: MediaMeasure } }[]): PreparedMessages {
  const copies = messages.map((message) => (Array.isArray(message.content) ? { ...message, content: [...message.content] } : message));
  for (const { entry, media } of prepared) {
    const content = copies[entry.message].content as ContentPart[];
    content[entry.part] = rewrittenPart(content[entry.part], entry.payload, media.bytes, media.format);
  }
  return { messages: copies, media: measuresOf(prepared.map((p) => p.media.measure)) };
}

function measuresOf(measures: MediaMeasure[]): InputMediaMeasures {
  return {
    audio: measures.flatMap((m) => (m.kind === 'audio' ? [m.audio] : [])),
    images: measures.flatMap((m) => (m.kind === 'image' ? [m.image] : [])),
    videos: measures.flatMap((m) => (m.kind === 'video' ? [m.video] : [])),
  };
}
