import { releaseNow } from './release-buffer';

describe('releasing a buffer at once', () => {
  it('detaches a buffer that owns its memory: nothing of it is left to hold', () => {
    const owned = Buffer.allocUnsafe(64 * 1024).fill(1);
    const memory = owned.buffer;
    releaseNow(owned);
    expect([owned.length, memory.byteLength]).toEqual([0, 0]);
  });

  it('leaves a small pooled buffer and its neighbours in the pool alone', () => {
    const first = Buffer.from('first');
    const second = Buffer.from('second');
    expect(first.buffer).toBe(second.buffer); // both in Node's pool, as small buffers are
    releaseNow(second);
    expect([first.toString(), second.toString()]).toEqual(['first', 'second']);
  });

  it('leaves a slice alone, even one that starts where its parent does', () => {
    const parent = Buffer.allocUnsafe(64 * 1024).fill(7);
    releaseNow(parent.subarray(0, 1024));
    releaseNow(parent.subarray(1024));
    expect([parent.length, parent[0], parent[parent.length - 1]]).toEqual([64 * 1024, 7, 7]);
  });

  it('accepts an empty buffer and a buffer already released', () => {
    const owned = Buffer.allocUnsafe(8192);
    releaseNow(owned);
    expect(() => releaseNow(owned)).not.toThrow();
    expect(() => releaseNow(Buffer.alloc(0))).not.toThrow();
  });
});
