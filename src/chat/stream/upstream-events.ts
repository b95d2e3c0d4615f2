// Reads the upstream's server-sent events as they arrive (no buffering of the whole answer) and
// yields each event's data; eventsource-parser handles line endings, comments and split chunks.
// What it holds of an unfinished line or event is capped: an upstream that never ends its line
// would otherwise be buffered whole (a 700 MB line took the gateway to 944 MiB).
import { createParser, type ParseError } from 'eventsource-parser';
import { upstreamTooLarge } from '../../upstream/upstream-limits';

export interface SseLimit {
  modelId: string;
  /** Characters of one unfinished line or event the parser may hold. */
  maxEventChars: number;
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
  for await (const chunk of body) {
    feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (pending.length > 0) yield pending.shift()!;
  }
  feed(decoder.decode());
  while (pending.length > 0) yield pending.shift()!;
}
