import { BigDecimal } from '../../common/big-decimal';
import { roundOnce } from './rounding';

describe('roundOnce: one half-up rounding per request, shared out by largest remainder', () => {
  it.each([
    [[], 0, []],
    [['0.5'], 1, [1]],
    [['0.4999'], 0, [0]],
    [['2.5'], 3, [3]], // half-up, not to even
    [['10', '20'], 30, [10, 20]],
    [['2.25', '3.75'], 6, [2, 4]],
    [['0.4', '0.4', '0.4'], 1, [1, 0, 0]], // ties go to the earlier item
    [['0.3', '0.6', '0.6'], 2, [0, 1, 1]],
    [['1.5', '1.5'], 3, [2, 1]],
    [['0.5', '0.5', '0.5', '0.5'], 2, [1, 1, 0, 0]],
    [['0.9', '0.9', '0.9'], 3, [1, 1, 1]],
  ])('%p -> total %i, shares %p', (amounts, total, shares) => {
    const rounded = roundOnce(amounts.map((amount) => BigDecimal.parse(amount)));
    expect(rounded).toEqual({ total, shares });
    expect(rounded.shares.reduce((sum, share) => sum + share, 0)).toBe(rounded.total);
  });
});
