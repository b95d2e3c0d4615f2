// Pure conversions between chat content, the OpenAI moderation request and the spec's Moderation.
import type { ModerationErrorObject, ModerationInputItem, ModerationResults, ModerationServiceResponse } from './moderation.types';

interface ModeratedMessage {
  content?: unknown;
}

/** The text of every message, and its inline images, as one multimodal moderation input. */
export function moderationInputOf(messages: readonly ModeratedMessage[]): ModerationInputItem[] {
  const texts: string[] = [];
  const images: ModerationInputItem[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') texts.push(message.content);
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as { type?: string; text?: unknown; image_url?: { url?: unknown } }[]) {
      if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
      if (part.type === 'image_url' && typeof part.image_url?.url === 'string') images.push({ type: 'image_url', image_url: { url: part.image_url.url } });
    }
  }
  return [...(texts.length > 0 ? [{ type: 'text' as const, text: texts.join('\n') }] : []), ...images];
}

/** The answer's text: each choice's content, refusal and spoken transcript. */
export function moderationOutputOf(texts: readonly (string | null | undefined)[]): ModerationInputItem[] {
  const text = texts.filter((t): t is string => typeof t === 'string' && t.length > 0).join('\n');
  return text ? [{ type: 'text', text }] : [];
}

export function toModerationResults(response: ModerationServiceResponse): ModerationResults {
  return {
    model: response.model,
    results: response.results.map((result) => ({ ...result, model: response.model, type: 'moderation_result' })),
    type: 'moderation_results',
  };
}

export function moderationError(code: string, message: string): ModerationErrorObject {
  return { code, message, type: 'error' };
}

export function isServiceResponse(value: unknown): value is ModerationServiceResponse {
  const candidate = value as ModerationServiceResponse | null;
  return typeof candidate?.model === 'string' && Array.isArray(candidate.results);
}
