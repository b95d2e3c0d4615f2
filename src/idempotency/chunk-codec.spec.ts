import { decodeChunks, encodeChunks } from './chunk-codec';

describe('kept body chunk codec', () => {
  it('gives back the same sequence of chunks, empty ones and binary bytes included', () => {
    const chunks = [Buffer.from('data: {"a":1}\n\n'), Buffer.alloc(0), Buffer.from([0, 255, 10, 13]), Buffer.from('data: [DONE]\n\n')];
    expect(decodeChunks(encodeChunks(chunks))).toEqual(chunks);
  });

  it('keeps an answer of no chunks as no chunks', () => {
    expect(decodeChunks(encodeChunks([]))).toEqual([]);
  });

  it('refuses a BLOB cut inside a length or inside a chunk', () => {
    const blob = encodeChunks([Buffer.from('hello'), Buffer.from('world')]);
    expect(() => decodeChunks(blob.subarray(0, blob.length - 1))).toThrow('truncated chunk');
    expect(() => decodeChunks(blob.subarray(0, 9 + 2))).toThrow('truncated chunk length');
  });
});
