import { boundedMemo } from './bounded-memo';

describe('boundedMemo', () => {
  it('computes each key once while it has room, and starts over once full', () => {
    const computed: string[] = [];
    const upper = boundedMemo((key) => {
      computed.push(key);
      return key.toUpperCase();
    }, 2);
    expect([upper('a'), upper('b'), upper('a'), upper('b')]).toEqual(['A', 'B', 'A', 'B']);
    expect(computed).toEqual(['a', 'b']);
    expect(upper('c')).toBe('C');
    expect(upper('a')).toBe('A');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });
});
