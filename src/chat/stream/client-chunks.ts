// How upstream chunks reach the client: unchanged except `model` (the public id) and `usage`,
// which the gateway owns. The client sees `usage: null` on every chunk and a final usage-only
// chunk only when it asked with `stream_options.include_usage`, as with OpenAI.
import type { ChatUsage } from '../chat-usage';
import type { Usage } from '../../billing/usage';
import type { ClientChunk, StreamChunk } from '../chat.types';
import { copyWith } from '../../common/copy-with';

export function isUsageOnlyChunk(chunk: StreamChunk): boolean {
  return (chunk.choices?.length ?? 0) === 0 && chunk.usage !== undefined && chunk.usage !== null;
}

/** The chunk as relayed, or null when it is the upstream's own usage chunk (the gateway sends its own). */
export function clientChunk(chunk: StreamChunk, publicModel: string, includeUsage: boolean): ClientChunk | null {
  if (isUsageOnlyChunk(chunk)) return null;
  if (includeUsage) return copyWith(chunk, { model: publicModel, usage: null }) as ClientChunk;
  // Destructured rather than deleted: a `delete` would give every chunk a hidden class of its own.
  const { usage: _upstreamUsage, ...relayed } = chunk;
  relayed.model = publicModel;
  return relayed as ClientChunk;
}

/** Identity of the stream's chunks, taken from the first one relayed. */
export interface StreamIdentity {
  id: string;
  created: number;
  model: string;
  system_fingerprint?: string | null;
}

export function identityOf(chunk: StreamChunk, publicModel: string, now: Date): StreamIdentity {
  return {
    id: chunk.id ?? '',
    created: chunk.created ?? Math.floor(now.getTime() / 1000),
    model: publicModel,
    ...(chunk.system_fingerprint !== undefined ? { system_fingerprint: chunk.system_fingerprint } : {}),
  };
}

export function trailingChunk(identity: StreamIdentity, extra: { usage?: Usage | ChatUsage; moderation?: unknown }): ClientChunk {
  return { ...identity, object: 'chat.completion.chunk', choices: [], ...extra };
}

export const sseFrame = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
export const SSE_DONE = 'data: [DONE]\n\n';
