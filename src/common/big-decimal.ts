// Exact decimals as a BigInt count of 10^-scale units, for the arithmetic every request does
// (pricing, summing quantities): sums and products of decimals are exact, so nothing here rounds
// unless asked. decimal.js, which does the rarer arithmetic (division, durations), is checked against
// it by property tests (big-decimal.spec.ts); this is several times cheaper per request.

/** Plain decimal text: digits with an optional fraction and sign, no exponent, no blanks. */
const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

const POWERS_OF_TEN: bigint[] = [1n];

function tenTo(exponent: number): bigint {
  for (let next = POWERS_OF_TEN.length; next <= exponent; next += 1) POWERS_OF_TEN.push(POWERS_OF_TEN[next - 1] * 10n);
  return POWERS_OF_TEN[exponent];
}

export class BigDecimal {
  static readonly ZERO = new BigDecimal(0n, 0);
  private static readonly HALF = new BigDecimal(5n, 1);

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
    const divisor = tenTo(this.scale);
    const quotient = this.units / divisor;
    return this.units < 0n && quotient * divisor !== this.units ? quotient - 1n : quotient;
  }

  /** The nearest integer, halves away from zero (decimal.js's ROUND_HALF_UP). */
  roundHalfUp(): bigint {
    return this.isNegative() ? -this.negated().plus(BigDecimal.HALF).floor() : this.plus(BigDecimal.HALF).floor();
  }

  /** Plain decimal text without trailing fractional zeros: `2.5`, `0.0000025`, `12`, `-3`. */
  toFixed(): string {
    const digits = (this.units < 0n ? -this.units : this.units).toString().padStart(this.scale + 1, '0');
    const whole = digits.slice(0, digits.length - this.scale);
    const fraction = digits.slice(digits.length - this.scale).replace(/0+$/, '');
    const sign = this.units < 0n ? '-' : '';
    return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
  }

  private negated(): BigDecimal {
    return new BigDecimal(-this.units, this.scale);
  }

  private unitsAt(scale: number): bigint {
    return scale === this.scale ? this.units : this.units * tenTo(scale - this.scale);
  }
}
