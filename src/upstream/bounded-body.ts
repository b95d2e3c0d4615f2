// Reads a non-streamed upstream answer into memory, up to a size limit: a declared Content-Length
// over it is refused before anything is read, and an undeclared body is cut off the moment it
// crosses the limit (the connection is destroyed, so the rest never arrives).
import type { Dispatcher } from 'undici';
import { upstreamTooLarge } from './upstream-limits';

/** Drops an answer unread. undici reports the abort as an 'error' event, which nobody else listens to. */
export function discardBody(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

export async function readBoundedBytes(response: Dispatcher.ResponseData, modelId: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (declared > maxBytes) {
    discardBody(response);
    throw upstreamTooLarge(modelId, 'an answer', maxBytes);
  }
  return collectBounded(response.body as AsyncIterable<Buffer>, modelId, maxBytes);
}

/** Every chunk of `body`, joined; throws (ending the iteration, which destroys a stream) past `maxBytes`. */
export async function collectBounded(body: AsyncIterable<Buffer>, modelId: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body) {
    received += chunk.length;
    if (received > maxBytes) throw upstreamTooLarge(modelId, 'an answer', maxBytes);
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
}

export async function readBoundedText(response: Dispatcher.ResponseData, modelId: string, maxBytes: number): Promise<string> {
  return (await readBoundedBytes(response, modelId, maxBytes)).toString('utf8');
}

/** The answer parsed as JSON, or `undefined` when it is not JSON (callers say what they expected). */
export async function readBoundedJson(response: Dispatcher.ResponseData, modelId: string, maxBytes: number): Promise<unknown> {
  const text = await readBoundedText(response, modelId, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The first `maxBytes` of an error answer (only its message is shown); the rest is discarded unread. */
export async function readErrorText(response: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= maxBytes) break;
    }
  } catch {
    /* an unreadable error body still yields the status's error */
  }
  if (received >= maxBytes) discardBody(response);
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}
