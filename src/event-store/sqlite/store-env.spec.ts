import { readInlineCommits } from './store-env';

describe('GATEWAY_STORE_INLINE_COMMITS', () => {
  it('is on unless switched off', () => {
    expect(readInlineCommits({})).toBe(true);
    expect(readInlineCommits({ GATEWAY_STORE_INLINE_COMMITS: 'on' })).toBe(true);
    expect(readInlineCommits({ GATEWAY_STORE_INLINE_COMMITS: ' Off ' })).toBe(false);
    expect(readInlineCommits({ GATEWAY_STORE_INLINE_COMMITS: '0' })).toBe(false);
  });

  it('stops the start-up on anything else, naming the variable', () => {
    expect(() => readInlineCommits({ GATEWAY_STORE_INLINE_COMMITS: 'of' })).toThrow("GATEWAY_STORE_INLINE_COMMITS must be 'on' or 'off'; got 'of'");
  });
});
