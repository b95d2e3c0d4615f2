import { Readable } from 'node:stream';
import { MultipartForm } from './multipart-form';
import { readUpload, uploadCapacity } from '../common/read-upload';

async function drain(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('MultipartForm', () => {
  it('builds a body that a standard form parser reads back, the file unchanged, with an exact Content-Length', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 13, 10]);
    const { body, headers } = new MultipartForm().file('file', 'a "b".wav', 'audio/wav', bytes).field('model', 'rhythm').field('t[]', 'word').toRequest();
    const raw = await drain(body);
    expect(Number(headers['content-length'])).toBe(raw.length);
    const form = await new Response(raw, { headers: { 'content-type': headers['content-type'] } }).formData();
    expect(form.get('model')).toBe('rhythm');
    expect(form.getAll('t[]')).toEqual(['word']);
    const file = form.get('file') as File;
    expect(file.name).toBe('a "b".wav'); // escaped on the wire, read back intact
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
  });

  it('sends the file buffer itself, not a copy', () => {
    const bytes = Buffer.alloc(16);
    const form = new MultipartForm().file('file', 'x', '', bytes);
    expect((form as unknown as { pieces: Buffer[] }).pieces).toContain(bytes);
  });
});

describe('readUpload', () => {
  it('reads a file up to exactly the remaining capacity and lowers it by what was read', async () => {
    const capacity = uploadCapacity({ 'content-length': '10' }, 100);
    expect(await readUpload(Readable.from([Buffer.from('12345'), Buffer.from('678')]), capacity)).toEqual(Buffer.from('12345678'));
    expect(capacity.remaining).toBe(2);
    expect(await readUpload(Readable.from([Buffer.from('90')]), capacity)).toEqual(Buffer.from('90'));
  });

  it('refuses a file one byte past the capacity, and a truncated file as 413', async () => {
    await expect(readUpload(Readable.from([Buffer.from('12345678901')]), { remaining: 10 })).rejects.toThrow(/Content-Length/);
    const truncated = Object.assign(Readable.from([Buffer.from('1')]), { truncated: true });
    await expect(readUpload(truncated, { remaining: 10 })).rejects.toMatchObject({ statusCode: 413 });
  });

  it('gives a chunked request (no Content-Length) the body limit as its capacity', () => {
    expect(uploadCapacity({}, 100)).toEqual({ remaining: 100 });
    expect(uploadCapacity({ 'content-length': '0' }, 100)).toEqual({ remaining: 100 });
    expect(uploadCapacity({ 'content-length': '1000' }, 100)).toEqual({ remaining: 100 });
  });
});
