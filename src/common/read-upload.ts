// Reads one uploaded file (a multipart part's stream) into memory with one copy: each chunk is copied
// into a buffer sized by what the request can still hold (its Content-Length less what was read), so
// the parser's chunks can be collected at once. @fastify/multipart's toBuffer() keeps every chunk and
// concatenates at the end, holding the file twice at its peak (95 MiB more for a maximum upload).
import type { Readable } from 'node:stream';

export interface UploadCapacity {
  /** Bytes the rest of the request body can still hold; a file is never larger. */
  remaining: number;
}

/** The request's declared body size, or null for a chunked body (the file is then read the usual way). */
export function uploadCapacity(headers: Record<string, string | string[] | undefined>): UploadCapacity | null {
  const declared = Number(headers['content-length']);
  return Number.isSafeInteger(declared) && declared > 0 ? { remaining: declared } : null;
}

export async function readUpload(file: Readable & { truncated?: boolean }, capacity: UploadCapacity): Promise<Buffer> {
  let buffer: Buffer | null = null;
  let length = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    if (length + chunk.length > capacity.remaining) throw new Error('the multipart body holds more than its Content-Length');
    (buffer ??= Buffer.allocUnsafe(capacity.remaining)).set(chunk, length);
    length += chunk.length;
  }
  // Past @fastify/multipart's fileSize limit the stream ends early, marked truncated: 413 as toBuffer() does.
  if (file.truncated) throw Object.assign(new Error('request file too large'), { statusCode: 413 });
  capacity.remaining -= length;
  return buffer ? buffer.subarray(0, length) : Buffer.alloc(0);
}
