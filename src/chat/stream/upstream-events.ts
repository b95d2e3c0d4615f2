// Reads the upstream's server-sent events as they arrive (no buffering of the whole answer) and
// yields each event's data; eventsource-parser handles line endings, comments and split chunks.
// What it holds of an unfinished line or event is capped: an upstream that never ends its line
// would otherwise be buffered whole (a 700 MB line took the gateway to 944 MiB).
// The `[DONE]` event is the last one yielded. A Node stream body is then read to its end (whatever
// follows is dropped, at most DRAIN_AFTER_DONE_BYTES of it), so its connection goes back to the pool
// without the AbortError (and its stack trace) a for-await leaving a stream early destroys it with;
// a body left for any other reason (a failure, the client gone) is destroyed.
import { Readable } from 'node:stream';
import { createParser, type ParseError } from 'eventsource-parser';
import { upstreamTooLarge } from '../../upstream/upstream-limits';

export interface SseLimit {
  modelId: string;
  /** Characters of one unfinished line or event the parser may hold. */
  maxEventChars: number;
}

export const SSE_DONE_DATA = '[DONE]';
/** What an upstream may still send after `[DONE]` before its connection is dropped instead of drained. */
export const DRAIN_AFTER_DONE_BYTES = 64 * 1024;

/** undici's response body: read the rest and drop it, destroyed past `limit` bytes in all. */
interface Dumpable {
  dump(options: { limit: number }): Promise<unknown>;
}

export function isDoneData(data: string): boolean {
  return data === SSE_DONE_DATA || data.trim() === SSE_DONE_DATA;
}

export async function* sseDataOf(body: AsyncIterable<Buffer | string>, limit: SseLimit): AsyncGenerator<string> {
  const pending: string[] = [];
  let overflow: ParseError | null = null;
  const parser = createParser({
    onEvent: (event) => pending.push(event.data),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = error;
    },
    maxBufferSize: limit.maxEventChars,
  });
  const decoder = new TextDecoder();
  const feed = (text: string) => {
    parser.feed(text);
    if (overflow) throw upstreamTooLarge(limit.modelId, 'a stream event', limit.maxEventChars);
  };
  const stream = body instanceof Readable ? body : null;
  let bytesRead = 0;
  let done = false;
  try {
    for await (const chunk of stream ? stream.iterator({ destroyOnReturn: false }) : body) {
      bytesRead += chunk.length;
      feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk as Buffer, { stream: true }));
      while (pending.length > 0) {
        const data = pending.shift()!;
        done = isDoneData(data);
        yield data;
        if (done) return;
      }
    }
    feed(decoder.decode());
    while (pending.length > 0) yield pending.shift()!;
  } finally {
    if (stream !== null) leave(stream, done, bytesRead);
  }
}

function leave(stream: Readable, done: boolean, bytesRead: number): void {
  if (stream.readableEnded || stream.destroyed) return;
  const dumpable = stream as Readable & Partial<Dumpable>;
  if (done && typeof dumpable.dump === 'function') void dumpable.dump({ limit: bytesRead + DRAIN_AFTER_DONE_BYTES }).catch(() => undefined);
  else stream.destroy();
}
