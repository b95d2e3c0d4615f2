// Parsing of the decimal and integer texts that events carry, whose sums must never round.
import { BigDecimal } from '../common/big-decimal';

/** Parses a plain decimal string (`12`, `0.25`, `-3`); anything else is a contract violation. */
export function parseDecimal(text: string, what: string): BigDecimal {
  try {
    return BigDecimal.parse(text);
  } catch {
    throw new Error(`${what} is not a decimal string: ${JSON.stringify(text)}`);
  }
}

export function parseIntegerMicros(text: string, what: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new Error(`${what} is not an integer number of micros: ${JSON.stringify(text)}`);
  return BigInt(text);
}
