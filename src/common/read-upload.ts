// Reads one uploaded file (a multipart part's stream) into memory: each chunk is copied into a buffer
// that grows with what has ARRIVED (doubling, never past what the request can still hold), so the
// parser's chunks can be collected at once and a grown-out buffer is freed at once. Sizing the buffer
// by the declared Content-Length let a client declaring 1 GiB with 20 tiny file parts reserve 20 GiB
// of address space; now no buffer is more than twice the bytes that arrived (or 64 KiB).
// @fastify/multipart's toBuffer() keeps every chunk and concatenates at the end, holding the file twice.
import type { Readable } from 'node:stream';
import { releaseNow } from './release-buffer';

export interface UploadCapacity {
  /** Bytes the rest of the request body can still hold; a file is never larger. */
  remaining: number;
}

const FIRST_BUFFER_BYTES = 64 * 1024;

/** The request's declared body size, or `limitBytes` for a chunked body. */
export function uploadCapacity(headers: Record<string, string | string[] | undefined>, limitBytes: number): UploadCapacity {
  const declared = Number(headers['content-length']);
  return { remaining: Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, limitBytes) : limitBytes };
}

export async function readUpload(file: Readable & { truncated?: boolean }, capacity: UploadCapacity): Promise<Buffer> {
  let buffer: Buffer = Buffer.alloc(0);
  let length = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    const needed = length + chunk.length;
    if (needed > capacity.remaining) throw new Error('the multipart body holds more than its Content-Length');
    if (needed > buffer.length) buffer = grown(buffer, length, Math.min(capacity.remaining, Math.max(needed, 2 * buffer.length, FIRST_BUFFER_BYTES)));
    buffer.set(chunk, length);
    length = needed;
  }
  // Past @fastify/multipart's fileSize limit the stream ends early, marked truncated: 413 as toBuffer() does.
  if (file.truncated) throw Object.assign(new Error('request file too large'), { statusCode: 413 });
  capacity.remaining -= length;
  return buffer.subarray(0, length);
}

/** A larger buffer holding the first `length` bytes of `buffer`, which is freed at once. */
function grown(buffer: Buffer, length: number, size: number): Buffer {
  const larger = Buffer.allocUnsafe(size);
  buffer.copy(larger, 0, 0, length);
  releaseNow(buffer);
  return larger;
}
