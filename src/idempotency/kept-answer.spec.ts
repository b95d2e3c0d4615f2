import { KeptAnswer, releasesKey } from './kept-answer';

describe('a kept answer', () => {
  it('keeps chunks up to the bound, exactly', () => {
    const answer = new KeptAnswer(4);
    answer.add('ab');
    answer.add(Buffer.from('cd'));
    expect(answer.kept()).toEqual([Buffer.from('ab'), Buffer.from('cd')]);
    expect(answer.size).toBe(4);
  });

  it('is not kept one byte past the bound, its size still counted', () => {
    const answer = new KeptAnswer(4);
    answer.add('abcde');
    answer.add('f');
    expect(answer.kept()).toBeNull();
    expect(answer.size).toBe(6);
  });

  it('releases the key only for a try-again answer that charged nothing', () => {
    expect(releasesKey(429, false)).toBe(true);
    expect(releasesKey(503, false)).toBe(true);
    expect(releasesKey(502, false)).toBe(true);
    expect(releasesKey(502, true)).toBe(false);
    expect(releasesKey(400, false)).toBe(false);
    expect(releasesKey(200, true)).toBe(false);
  });
});
