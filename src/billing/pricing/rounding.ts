// A request is rounded once, and its whole micros are shared out over the line items so that the
// daily cost read model, which sums line items, adds up to exactly what each request cost.
import { BigDecimal } from '../../common/big-decimal';
import { exactMicros } from './cost-range';

export interface RoundedTotal {
  total: number;
  shares: number[];
}

/**
 * Total = sum of exact amounts rounded half-up to whole micros. Shares: each amount's floor, plus
 * one micro each to the amounts with the largest fractional parts (earlier items win ties) until
 * the shares reach the total (largest-remainder / Hamilton apportionment).
 */
export function roundOnce(exactAmounts: readonly BigDecimal[]): RoundedTotal {
  const sum = exactAmounts.reduce((acc, amount) => acc.plus(amount), BigDecimal.ZERO);
  const total = exactMicros(sum.roundHalfUp(), 'The request cost');
  const floors = exactAmounts.map((amount) => amount.floor());
  const shares = floors.map((floor) => exactMicros(floor, 'A line item cost'));
  let leftover = total - shares.reduce((acc, share) => acc + share, 0);
  for (const index of byRemainderDescending(exactAmounts, floors)) {
    if (leftover === 0) break;
    shares[index] += 1;
    leftover -= 1;
  }
  return { total, shares };
}

function byRemainderDescending(amounts: readonly BigDecimal[], floors: readonly bigint[]): number[] {
  const remainders = amounts.map((amount, index) => amount.minus(BigDecimal.of(floors[index])));
  return amounts
    .map((_amount, index) => index)
    .sort((a, b) => remainders[b].compare(remainders[a]) || a - b);
}
