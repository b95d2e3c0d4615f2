import { inputSegments } from './input-segments';

const lengths = (segments: string[]) => segments.map((segment) => [...segment].length);

describe('inputSegments', () => {
  it('keeps an input within the limit, or without one, whole', () => {
    expect(inputSegments('Short. Input.', 100)).toEqual(['Short. Input.']);
    expect(inputSegments('x'.repeat(10_000), null)).toEqual(['x'.repeat(10_000)]);
  });

  it('cuts after the last complete sentence that fits', () => {
    const input = 'One two three. Four five six. Seven eight nine.';
    expect(inputSegments(input, 32)).toEqual(['One two three. Four five six. ', 'Seven eight nine.']);
  });

  it('cuts a sentence longer than the limit at a space, then at the limit itself', () => {
    expect(inputSegments('alpha beta gamma delta', 12)).toEqual(['alpha beta ', 'gamma delta']);
    expect(inputSegments('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('never splits a character made of two UTF-16 units', () => {
    const input = '👋'.repeat(7);
    const segments = inputSegments(input, 3);
    expect(lengths(segments)).toEqual([3, 3, 1]);
    expect(segments.join('')).toBe(input);
  });

  it('splits CJK text at its own sentence marks', () => {
    expect(inputSegments('你好。我很好！谢谢。', 7)).toEqual(['你好。我很好！', '谢谢。']);
  });

  it('cuts 200,000 characters into bounded segments that join back to the input', () => {
    const input = 'The gateway speaks long documents one sentence after another. '.repeat(3226).slice(0, 200_000);
    const segments = inputSegments(input, 4096);
    expect(segments.join('')).toBe(input);
    expect(Math.max(...lengths(segments))).toBeLessThanOrEqual(4096);
    expect(segments.length).toBeLessThan(55);
    expect(segments.slice(0, -1).every((segment) => segment.endsWith('another. '))).toBe(true);
  });
});
