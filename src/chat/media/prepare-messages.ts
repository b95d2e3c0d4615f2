// Walks the messages, prepares every media part (in parallel: each is an ffprobe/ffmpeg run) and
// returns the messages as the upstream gets them plus what the gateway measured of the media.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { ChatMessage, ContentPart, InputMediaMeasures } from '../chat.types';
import { assertCaptioningShape, CAPTIONING_CHECKS, isCaptioningModel } from './captioning';
import { isMediaPart, mediaPayloadOf, rewrittenPart } from './media-parts';
import { type MediaChecks, type PreparedMedia, prepareMedia } from './prepare-media';

export interface PreparedMessages {
  messages: ChatMessage[];
  media: InputMediaMeasures;
}

export async function prepareMessages(messages: readonly ChatMessage[], model: CatalogModel): Promise<PreparedMessages> {
  const captioning = isCaptioningModel(model);
  if (captioning) assertCaptioningShape(messages, model);
  const checks: MediaChecks = captioning ? CAPTIONING_CHECKS : {};
  const prepared = await Promise.all(messages.map((message, index) => prepareMessage(message, index, model, checks)));
  const measures = prepared.flatMap((entry) => entry.media);
  return {
    messages: prepared.map((entry) => entry.message),
    media: {
      audio: measures.flatMap((m) => (m.kind === 'audio' ? [m.audio] : [])),
      images: measures.flatMap((m) => (m.kind === 'image' ? [m.image] : [])),
      videos: measures.flatMap((m) => (m.kind === 'video' ? [m.video] : [])),
    },
  };
}

async function prepareMessage(message: ChatMessage, index: number, model: CatalogModel, checks: MediaChecks) {
  if (!Array.isArray(message.content) || !message.content.some(isMediaPart)) return { message, media: [] };
  const parts = await Promise.all(
    message.content.map((part, partIndex) => preparePart(part, ['messages', index, 'content', partIndex], model, checks)),
  );
  return {
    message: { ...message, content: parts.map((p) => p.part) },
    media: parts.flatMap((p) => (p.prepared ? [p.prepared.measure] : [])),
  };
}

async function preparePart(part: ContentPart, path: (string | number)[], model: CatalogModel, checks: MediaChecks) {
  if (!isMediaPart(part)) return { part, prepared: null };
  const payload = mediaPayloadOf(part, path);
  const prepared: PreparedMedia = await prepareMedia(payload, model, checks);
  return { part: rewrittenPart(part, payload, prepared.bytes, prepared.format), prepared };
}
