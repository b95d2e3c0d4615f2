// Reads the upstream's server-sent events as they arrive (no buffering of the whole answer) and
// yields each event's data; eventsource-parser handles line endings, comments and split chunks.
import { createParser } from 'eventsource-parser';

export async function* sseDataOf(body: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const pending: string[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event.data) });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (pending.length > 0) yield pending.shift()!;
  }
  parser.feed(decoder.decode());
  while (pending.length > 0) yield pending.shift()!;
}
