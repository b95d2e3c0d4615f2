// Configured decimals (prices, durations) as plain decimal text, normalised and summed exactly.
import { BigDecimal } from './big-decimal';

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
  if (typeof value === 'number') return BigDecimal.ofNumber(value).toFixed();
  if (typeof value === 'string') return BigDecimal.parse(value).toFixed();
  throw new Error(`not a decimal: ${JSON.stringify(value)}`);
}

/** Sums plain decimal texts exactly; the result is plain decimal text. */
export function sumDecimalTexts(values: readonly string[]): string {
  return values.reduce((sum, value) => sum.plus(BigDecimal.parse(value)), BigDecimal.ZERO).toFixed();
}
