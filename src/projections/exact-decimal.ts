// Decimal arithmetic wide enough that sums of usage quantities and money never round.
import Decimal from 'decimal.js';

export const ExactDecimal = Decimal.clone({ precision: 200, toExpNeg: -9e15, toExpPos: 9e15 });
export type ExactDecimal = InstanceType<typeof ExactDecimal>;

/** Parses a plain decimal string (`12`, `0.25`, `-3`); anything else is a contract violation. */
export function parseDecimal(text: string, what: string): ExactDecimal {
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Error(`${what} is not a decimal string: ${JSON.stringify(text)}`);
  return new ExactDecimal(text);
}

export function parseIntegerMicros(text: string, what: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new Error(`${what} is not an integer number of micros: ${JSON.stringify(text)}`);
  return BigInt(text);
}
