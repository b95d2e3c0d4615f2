// Exact decimals as a BigInt count of 10^-scale units: the project's one decimal type, for money,
// durations and megapixels. Sums and products are exact; nothing rounds unless asked, and what rounds
// (division, places, integers) names its rule. Several times cheaper per request than decimal.js, which
// it replaced (docs/benchmarks.md, "Money as BigInt units").

/** Plain decimal text: digits with an optional fraction and sign, no exponent, no blanks. */
const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
/** What JavaScript prints for a number (`2.5e-7`, `1e+21`) and tools write: sign, digits, point, exponent. */
const SCIENTIFIC_DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;
/** Beyond any double (1e-324 .. 1e308): a larger exponent is refused, not expanded into millions of digits. */
const MAX_EXPONENT = 1000;

/** How a result with more digits than asked for is cut: `half-up` takes halves away from zero (decimal.js's ROUND_HALF_UP). */
export type Rounding = 'half-up' | 'ceil' | 'floor';

const POWERS_OF_TEN: bigint[] = [1n];

function tenTo(exponent: number): bigint {
  for (let next = POWERS_OF_TEN.length; next <= exponent; next += 1) POWERS_OF_TEN.push(POWERS_OF_TEN[next - 1] * 10n);
  return POWERS_OF_TEN[exponent];
}

/** n / d rounded to an integer by `rounding`. */
function divideRounded(n: bigint, d: bigint, rounding: Rounding): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  const [num, den] = d < 0n ? [-n, -d] : [n, d];
  const quotient = num / den;
  const remainder = num - quotient * den;
  if (remainder === 0n) return quotient;
  const away = num < 0n ? quotient - 1n : quotient + 1n;
  if (rounding === 'floor') return num < 0n ? away : quotient;
  if (rounding === 'ceil') return num > 0n ? away : quotient;
  return 2n * (remainder < 0n ? -remainder : remainder) >= den ? away : quotient;
}

export class BigDecimal {
  static readonly ZERO = new BigDecimal(0n, 0);

  /** value = units x 10^-scale; scale >= 0. */
  private constructor(
    readonly units: bigint,
    readonly scale: number,
  ) {}

  /** Parses plain decimal text (`12`, `0.25`, `-3`); anything else throws `not a decimal: <text>`. */
  static parse(text: string): BigDecimal {
    const match = PLAIN_DECIMAL.exec(text);
    if (!match) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
    const [, sign, whole, fraction = ''] = match;
    const units = BigInt(whole + fraction);
    return new BigDecimal(sign ? -units : units, fraction.length);
  }

  /**
   * Parses plain or exponent decimal text (`2.5e-7`, `.5`, `+3`, `1E3`), as decimal.js did; anything
   * else, or an exponent past ±1000, throws `not a decimal: <text>`.
   */
  static parseScientific(text: string): BigDecimal {
    const match = SCIENTIFIC_DECIMAL.exec(text);
    const exponent = Number(match?.[4] ?? 0);
    if (!match || match[2] + (match[3] ?? '') === '' || Math.abs(exponent) > MAX_EXPONENT) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
    const [, sign, whole, fraction = ''] = match;
    const digits = BigInt(whole + fraction);
    const units = sign === '-' ? -digits : digits;
    const scale = fraction.length - exponent;
    return scale >= 0 ? new BigDecimal(units, scale) : new BigDecimal(units * tenTo(-scale), 0);
  }

  /** A finite number by its shortest text (`String(n)`): 0.1 is exactly 0.1, not the binary double. */
  static ofNumber(value: number): BigDecimal {
    if (!Number.isFinite(value)) throw new Error(`not a decimal: ${String(value)}`);
    return BigDecimal.parseScientific(String(value));
  }

  /** units x 10^-scale, e.g. micros as `fromUnits(micros, 6)`. */
  static fromUnits(units: bigint, scale: number): BigDecimal {
    if (!Number.isSafeInteger(scale) || scale < 0) throw new RangeError(`scale must be a non-negative integer, got ${scale}`);
    return new BigDecimal(units, scale);
  }

  static of(integer: number | bigint): BigDecimal {
    if (typeof integer === 'number' && !Number.isSafeInteger(integer)) throw new Error(`not a safe integer: ${integer}`);
    return new BigDecimal(BigInt(integer), 0);
  }

  plus(other: BigDecimal): BigDecimal {
    if (this.scale === other.scale) return new BigDecimal(this.units + other.units, this.scale);
    const scale = Math.max(this.scale, other.scale);
    return new BigDecimal(this.unitsAt(scale) + other.unitsAt(scale), scale);
  }

  minus(other: BigDecimal): BigDecimal {
    return this.plus(new BigDecimal(-other.units, other.scale));
  }

  times(other: BigDecimal | number): BigDecimal {
    const factor = typeof other === 'number' ? BigDecimal.of(other) : other;
    return new BigDecimal(this.units * factor.units, this.scale + factor.scale);
  }

  /** this / divisor to `places` decimal places, cut by `rounding`; a zero divisor throws RangeError. */
  dividedBy(divisor: BigDecimal | number, places: number, rounding: Rounding): BigDecimal {
    const by = typeof divisor === 'number' ? BigDecimal.ofNumber(divisor) : divisor;
    checkPlaces(places);
    // (u1 x 10^-s1) / (u2 x 10^-s2) = u1 / u2 x 10^(s2 - s1), wanted in units of 10^-places.
    const shift = places + by.scale - this.scale;
    const [n, d] = shift >= 0 ? [this.units * tenTo(shift), by.units] : [this.units, by.units * tenTo(-shift)];
    return new BigDecimal(divideRounded(n, d, rounding), places);
  }

  /** At most `places` decimal places, cut by `rounding`. */
  roundTo(places: number, rounding: Rounding): BigDecimal {
    checkPlaces(places);
    if (places >= this.scale) return this;
    return new BigDecimal(divideRounded(this.units, tenTo(this.scale - places), rounding), places);
  }

  isZero(): boolean {
    return this.units === 0n;
  }

  isNegative(): boolean {
    return this.units < 0n;
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `other`. */
  compare(other: BigDecimal): number {
    const scale = Math.max(this.scale, other.scale);
    const difference = this.unitsAt(scale) - other.unitsAt(scale);
    return difference < 0n ? -1 : difference > 0n ? 1 : 0;
  }

  /** The largest integer not above this value. */
  floor(): bigint {
    return divideRounded(this.units, tenTo(this.scale), 'floor');
  }

  /** The smallest integer not below this value. */
  ceil(): bigint {
    return divideRounded(this.units, tenTo(this.scale), 'ceil');
  }

  /** The nearest integer, halves away from zero (decimal.js's ROUND_HALF_UP). */
  roundHalfUp(): bigint {
    return divideRounded(this.units, tenTo(this.scale), 'half-up');
  }

  negated(): BigDecimal {
    return new BigDecimal(-this.units, this.scale);
  }

  abs(): BigDecimal {
    return this.isNegative() ? this.negated() : this;
  }

  /** The double nearest this value (for JSON numbers and ratios; money stays in text or units). */
  toNumber(): number {
    return Number(this.toFixed());
  }

  /** Plain decimal text without trailing fractional zeros: `2.5`, `0.0000025`, `12`, `-3`. */
  toFixed(): string {
    const digits = (this.units < 0n ? -this.units : this.units).toString().padStart(this.scale + 1, '0');
    const whole = digits.slice(0, digits.length - this.scale);
    const fraction = digits.slice(digits.length - this.scale).replace(/0+$/, '');
    const sign = this.units < 0n ? '-' : '';
    return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
  }

  private unitsAt(scale: number): bigint {
    return scale === this.scale ? this.units : this.units * tenTo(scale - this.scale);
  }
}

function checkPlaces(places: number): void {
  if (!Number.isSafeInteger(places) || places < 0) throw new RangeError(`places must be a non-negative integer, got ${places}`);
}
