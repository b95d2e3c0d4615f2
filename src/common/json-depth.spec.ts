import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

const nestedArrays = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
const nestedObjects = (depth: number): unknown => JSON.parse('{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1));

describe('JSON nesting depth', () => {
  it('counts scalars as 0 levels and each object or array as one', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan({ a: [1, 'x', { b: null }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, 'x', { b: [] }] }, 3)).toBe(true);
  });

  it.each([
    ['arrays', nestedArrays],
    ['objects', nestedObjects],
  ])('accepts %s nested exactly to the limit and refuses one level more', (_kind, nested) => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('finds the deep branch after shallow siblings, and never recurses past the limit', () => {
    const body = { messages: [{ role: 'user', content: 'hi' }], tools: [{ parameters: nestedArrays(MAX_JSON_DEPTH) }] };
    expect(nestsDeeperThan(body, MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(nestedArrays(200_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
