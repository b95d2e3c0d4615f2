// The amounts cost events carry (decimal and integer texts), parsed for the cost read models, whose
// sums must never round. A value that breaks these rules is an EventContractError: the event is
// parked, never retried.
import { BigDecimal } from '../../common/big-decimal';
import { EventContractError } from '../../projections/parking/event-contract-error';

/** The largest amount one event may carry: summed in SQLite's 64-bit INTEGER, a day can then hold 1,000 of them. */
export const MAX_EVENT_USD_MICROS = BigInt(Number.MAX_SAFE_INTEGER);

/** Parses a plain decimal string (`12`, `0.25`, `-3`); anything else is a contract violation. */
export function parseDecimal(text: unknown, what: string): BigDecimal {
  try {
    if (typeof text !== 'string') throw new TypeError();
    return BigDecimal.parse(text);
  } catch {
    throw new EventContractError(`${what} is not a decimal string: ${JSON.stringify(text)}`);
  }
}

/** An integer amount of micros, as decimal text or a JSON number, within ±MAX_EVENT_USD_MICROS. */
export function parseIntegerMicros(value: unknown, what: string): bigint {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^-?\d{1,30}$/.test(text)) {
    throw new EventContractError(`${what} is not an integer number of micros: ${JSON.stringify(value)}`);
  }
  const micros = BigInt(text);
  if (micros > MAX_EVENT_USD_MICROS || -micros > MAX_EVENT_USD_MICROS) {
    throw new EventContractError(`${what} ${text} is beyond the ${MAX_EVENT_USD_MICROS} micros one event may carry`);
  }
  return micros;
}
