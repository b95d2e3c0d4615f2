// A multipart body is fingerprinted before its request runs, but @fastify/multipart reads the raw
// request stream itself. So the declared bytes are read here (counted once, by the body budget's hook,
// as they arrive) and put back at the front of the stream for the parser to read as if untouched.
// Only requests that send an Idempotency-Key pay this: their body is held whole (at most the body limit).
import type { IncomingMessage } from 'node:http';

/** The whole body, which stays readable from `raw`; rejects when the client stops before the declared length. */
export function peekWholeBody(raw: IncomingMessage, declaredBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      raw.off('readable', onReadable);
      raw.off('end', onEnd);
      raw.off('error', onError);
      raw.off('close', onEnd);
    };
    const onReadable = () => {
      // Never read past the declared length: the stream must not see its end before the bytes go back.
      for (let chunk: Buffer | null; received < declaredBytes && (chunk = raw.read() as Buffer | null) !== null; ) {
        chunks.push(chunk);
        received += chunk.length;
      }
      if (received < declaredBytes) return;
      cleanup();
      const body = Buffer.concat(chunks);
      raw.unshift(body);
      resolve(body);
    };
    const onEnd = () => {
      cleanup();
      reject(new Error(`request body ended after ${received} of ${declaredBytes} bytes`));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    raw.on('readable', onReadable);
    raw.once('end', onEnd);
    raw.once('close', onEnd);
    raw.once('error', onError);
    onReadable();
  });
}
