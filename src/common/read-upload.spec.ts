import { Readable } from 'node:stream';
import { readUpload, uploadCapacity } from './read-upload';

const KiB = 1024;
const MiB = 1024 * KiB;

function fileOf(chunks: Buffer[]): Readable & { truncated?: boolean } {
  return Readable.from(chunks);
}

describe('reading an uploaded file', () => {
  it('returns the bytes as sent, across many chunks', async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => Buffer.alloc(7 * KiB, i));
    const bytes = await readUpload(fileOf(chunks), { remaining: MiB });
    expect(bytes.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('never allocates by the declared length: a tiny part of a 1 GiB declaration is a buffer of its own size', async () => {
    const capacity = uploadCapacity({ 'content-length': String(1024 * MiB) }, 100 * MiB);
    expect(capacity.remaining).toBe(100 * MiB);
    const bytes = await readUpload(fileOf([Buffer.from('tiny')]), capacity);
    expect([bytes.toString(), bytes.buffer.byteLength]).toEqual(['tiny', 4]);
  });

  it('joins what arrived into one buffer of exactly its size, across slabs', async () => {
    const chunks = [Buffer.alloc(300 * KiB, 1), Buffer.alloc(900 * KiB, 2), Buffer.alloc(5, 3)];
    const bytes = await readUpload(fileOf(chunks), { remaining: 10 * MiB });
    expect(bytes.buffer.byteLength).toBe(1200 * KiB + 5);
    expect(bytes.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('refuses a file larger than the request can hold, at and past the edge', async () => {
    await expect(readUpload(fileOf([Buffer.alloc(10)]), { remaining: 10 })).resolves.toHaveLength(10);
    await expect(readUpload(fileOf([Buffer.alloc(11)]), { remaining: 10 })).rejects.toThrow('more than its Content-Length');
  });

  it('takes what it read off the capacity left for later files', async () => {
    const capacity = { remaining: 100 };
    await readUpload(fileOf([Buffer.alloc(60)]), capacity);
    expect(capacity.remaining).toBe(40);
  });
});
