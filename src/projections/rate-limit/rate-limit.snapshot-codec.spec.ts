import { decodeSnapshot, encodeSnapshot } from './rate-limit.snapshot-codec';

describe('rate-limit snapshot codec', () => {
  const epochMs = Date.UTC(2026, 10, 22, 12, 0, 0);

  it('round-trips every organization and every time, including repeats and a zero gap', () => {
    const snapshot = {
      'org-a': [epochMs, epochMs, epochMs + 1, epochMs + 59_999],
      'org-ü_ñ': [1],
      'org-big-gap': [0, Number.MAX_SAFE_INTEGER],
    };
    expect(decodeSnapshot(encodeSnapshot(snapshot))).toEqual(snapshot);
  });

  it('round-trips an empty snapshot', () => {
    expect(decodeSnapshot(encodeSnapshot({}))).toEqual({});
  });

  it('takes about a byte per admission when admissions are milliseconds apart', () => {
    const times = Array.from({ length: 60_000 }, (_, index) => epochMs + index);
    const encoded = encodeSnapshot({ 'org-a': times });
    expect(encoded.length).toBeLessThan(60_000 + 32);
    expect(decodeSnapshot(encoded)).toEqual({ 'org-a': times });
  });

  it('reads the JSON text snapshots of earlier versions', () => {
    expect(decodeSnapshot(JSON.stringify({ 'org-a': [['r1', 10], 20] }))).toEqual({ 'org-a': [['r1', 10], 20] });
  });

  it('refuses an unknown format or a truncated snapshot', () => {
    expect(() => decodeSnapshot(Buffer.from([2]))).toThrow('unknown rate-limit snapshot format');
    const encoded = encodeSnapshot({ 'org-a': [epochMs, epochMs + 300] });
    expect(() => decodeSnapshot(encoded.subarray(0, encoded.length - 1))).toThrow('truncated rate-limit snapshot');
    expect(() => decodeSnapshot(Buffer.from([1, 200]))).toThrow('truncated rate-limit snapshot');
  });

  it('refuses times that are not ascending non-negative integers', () => {
    expect(() => encodeSnapshot({ 'org-a': [5, 4] })).toThrow('not an unsigned integer: -1');
    expect(() => encodeSnapshot({ 'org-a': [1.5] })).toThrow('not an unsigned integer: 1.5');
  });
});
