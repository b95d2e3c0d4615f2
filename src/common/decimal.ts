// Exact decimal arithmetic for money, durations and megapixels. decimal.js rounds every result to
// 20 significant digits by default, which a price times a large quantity in micros can exceed, so
// the project uses one clone with room to spare and plain (never exponent) text output.
import Decimal from 'decimal.js';
import { BigDecimal } from './big-decimal';

export const ExactDecimal = Decimal.clone({
  precision: 100,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -100,
  toExpPos: 100,
});
export type ExactDecimal = InstanceType<typeof ExactDecimal>;

/**
 * Normalises a configured decimal (a price, a duration) to plain decimal text: `"0.0000025"`,
 * `"12"`, `"0.5"`. A YAML/JSON number is read by its shortest text (`String(n)`), so `2.5e-7`
 * becomes `"0.00000025"` exactly rather than through binary floating point. A string must already
 * be a plain decimal. `null` passes through (an absent price).
 * @throws Error `not a decimal: <value>`; callers prefix it with the config path.
 */
export function toDecimalText(value: string | number): string;
export function toDecimalText(value: null): null;
export function toDecimalText(value: string | number | null): string | null;
export function toDecimalText(value: string | number | null): string | null {
  if (value === null) return null;
  if (typeof value === 'number') return numberToDecimalText(value);
  if (typeof value === 'string') return BigDecimal.parse(value).toFixed();
  throw new Error(`not a decimal: ${JSON.stringify(value)}`);
}

function numberToDecimalText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a decimal: ${String(value)}`);
  return new ExactDecimal(String(value)).toFixed();
}

/** Sums plain decimal texts exactly; the result is plain decimal text. */
export function sumDecimalTexts(values: readonly string[]): string {
  return values.reduce((sum, value) => sum.plus(BigDecimal.parse(value)), BigDecimal.ZERO).toFixed();
}
