// A USD amount as the key API takes it. A decimal string is read exactly (usdToMicros). A JSON number
// arrives as a double, so a number is taken when it is exactly the double nearest to a whole number of
// micros (0.30000000000000004 is not); numbers above MAX_USD_NUMBER could not say their micros exactly
// and must be sent as strings.
import { usdToMicros } from '../budgets/spend-limits';

/** 9e9 USD: every micros count up to it is a safe integer, so the nearest-micros test is exact. */
export const MAX_USD_NUMBER = 9_000_000_000;

export function usdAmountMicros(value: unknown): bigint | null {
  if (typeof value === 'string') return usdToMicros(value);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_USD_NUMBER) return null;
  const micros = Math.round(value * 1_000_000);
  return micros / 1_000_000 === value ? BigInt(micros) : null;
}
