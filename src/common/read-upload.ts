// Reads one uploaded file (a multipart part's stream) into memory: each chunk is copied as it arrives
// into slabs (64 KiB, then 1 MiB each), so the parser's chunks can be collected at once, and the
// slabs are joined at the end into one buffer of the file's size, each slab freed as soon as it is
// copied, so the file is held about once (plus a slab) at its peak. Nothing is sized by the declared
// Content-Length: a client declaring 1 GiB with 20 tiny file parts had each part allocated at the
// declared remaining length (20 GiB of address space); now a buffer never exceeds the bytes that
// arrived, but for the first 64 KiB slab. @fastify/multipart's toBuffer() keeps every chunk and
// concatenates at the end, holding the file twice at its peak.
import type { Readable } from 'node:stream';
import { releaseNow } from './release-buffer';

export interface UploadCapacity {
  /** Bytes the rest of the request body can still hold; a file is never larger. */
  remaining: number;
}

const FIRST_SLAB_BYTES = 64 * 1024;
const SLAB_BYTES = 1024 * 1024;

/** The request's declared body size (at most `limitBytes`), or `limitBytes` for a chunked body. */
export function uploadCapacity(headers: Record<string, string | string[] | undefined>, limitBytes: number): UploadCapacity {
  const declared = Number(headers['content-length']);
  return { remaining: Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, limitBytes) : limitBytes };
}

export async function readUpload(file: Readable & { truncated?: boolean }, capacity: UploadCapacity): Promise<Buffer> {
  const slabs = new Slabs();
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      if (slabs.length + chunk.length > capacity.remaining) throw new Error('the multipart body holds more than its Content-Length');
      slabs.add(chunk);
    }
    // Past @fastify/multipart's fileSize limit the stream ends early, marked truncated: 413 as toBuffer() does.
    if (file.truncated) throw Object.assign(new Error('request file too large'), { statusCode: 413 });
  } catch (error) {
    slabs.release(); // a file given up on (refused, cut short) is freed now, not at a later collection
    throw error;
  }
  capacity.remaining -= slabs.length;
  return slabs.join();
}

class Slabs {
  private readonly slabs: Buffer[] = [];
  private used = 0;
  length = 0;

  add(chunk: Buffer): void {
    for (let offset = 0; offset < chunk.length; ) {
      let slab = this.slabs[this.slabs.length - 1];
      if (!slab || this.used === slab.length) {
        slab = Buffer.allocUnsafeSlow(this.slabs.length === 0 ? FIRST_SLAB_BYTES : SLAB_BYTES);
        this.slabs.push(slab);
        this.used = 0;
      }
      const copied = chunk.copy(slab, this.used, offset);
      this.used += copied;
      offset += copied;
    }
    this.length += chunk.length;
  }

  /** One buffer of exactly the bytes added; each slab is freed once copied. */
  join(): Buffer {
    const joined = Buffer.allocUnsafeSlow(this.length);
    let at = 0;
    for (const slab of this.slabs) {
      at += slab.copy(joined, at, 0, Math.min(slab.length, this.length - at));
      releaseNow(slab);
    }
    this.slabs.length = 0;
    return joined;
  }

  release(): void {
    for (const slab of this.slabs) releaseNow(slab);
    this.slabs.length = 0;
  }
}
