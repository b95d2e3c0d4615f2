// Money in the console is exact: integer micro-dollars as BigInt, summed as BigInt, never floats.
// The cost API's JSON amounts are floats of at most six decimals (micros / 10^6); each is read back to
// its exact micros once, at the edge. Chart heights may be floats; totals never are.

const DECIMAL_USD = /^(-?)(\d+)(?:\.(\d{1,6}))?$/;

/** Exact micros of a decimal USD string with at most six decimals ("1.50025", "0.000001", "12"). */
export function usdToMicros(usd: string): bigint {
  const match = DECIMAL_USD.exec(usd.trim());
  if (!match) throw new RangeError(`not a USD amount with at most six decimals: ${JSON.stringify(usd)}`);
  const micros = BigInt(match[2]) * 1_000_000n + BigInt((match[3] ?? '').padEnd(6, '0'));
  return match[1] === '-' ? -micros : micros;
}

/**
 * Exact micros of a cost API amount. The API writes micros / 10^6 as the shortest float that reads
 * back as that value, so its decimal text is the exact amount; exponent forms (below 10^-6 or huge)
 * go through toFixed(6), which rounds to the nearest micro.
 */
export function amountToMicros(value: number): bigint {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  const text = String(value);
  return usdToMicros(/e/i.test(text) ? value.toFixed(6) : text);
}

export function sumMicros(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}

/** "$1.500250": six decimals always, so every micro shows and columns line up. */
export function formatUsd(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  const whole = (abs / 1_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${whole}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}

/** For chart heights only. */
export function microsToFloatUsd(micros: bigint): number {
  return Number(micros) / 1_000_000;
}
