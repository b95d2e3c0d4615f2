// The one rule for what a cost may be: whole micros that a JSON number carries exactly (a safe
// integer). Every consumer (events, the cost fold, Kafka messages, reconcile) reads costUsdMicros as
// a JSON number, so a cost past 2^53 - 1 would be silently rounded or refused downstream: it is
// refused here instead, before anything is appended (docs/pricing.md).

export class CostOutOfRangeError extends Error {
  constructor(readonly what: string, readonly micros: bigint) {
    super(`${what} of ${micros} USD micros cannot be represented exactly (the limit is ${Number.MAX_SAFE_INTEGER})`);
  }
}

const MAX_MICROS = BigInt(Number.MAX_SAFE_INTEGER);

/** The micros as a number, or CostOutOfRangeError when their magnitude is past 2^53 - 1. */
export function exactMicros(micros: bigint, what: string): number {
  if (micros > MAX_MICROS || micros < -MAX_MICROS) throw new CostOutOfRangeError(what, micros);
  return Number(micros);
}
