import { copyWith } from './copy-with';

describe('copyWith', () => {
  it('copies own enumerable properties and lets the additions win, like spread', () => {
    const source = { a: 1, b: { nested: true } };
    const copy = copyWith(source, { b: { nested: false }, c: 3 });
    expect(copy).toEqual({ a: 1, b: { nested: false }, c: 3 });
    expect(Object.keys(copy)).toEqual(['a', 'b', 'c']);
    expect(source).toEqual({ a: 1, b: { nested: true } });
  });

  it('makes a plain object from a class instance, as spread does', () => {
    class Dto {
      model = 'm';
    }
    const copy = copyWith(new Dto());
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual({ model: 'm' });
  });
});
