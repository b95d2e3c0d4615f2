import fc from 'fast-check';
import { BigDecimal, type Rounding } from './big-decimal';

// Decimal text shaped like prices, quantities and micros: up to 20 whole and 20 fractional digits,
// either sign, with leading and trailing zeros.
const decimalText = fc
  .tuple(fc.boolean(), fc.stringMatching(/^\d{1,20}$/), fc.option(fc.stringMatching(/^\d{1,20}$/), { nil: undefined }))
  .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);
const nonZero = decimalText.filter((text) => !BigDecimal.parse(text).isZero());
const rounding = fc.constantFrom<Rounding>('half-up', 'ceil', 'floor');

/** The same text with its redundant zeros taken off by string work alone: a second implementation. */
function normalised(text: string): string {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  const plain = `${whole.replace(/^0+(?=\d)/, '')}${fraction.replace(/0+$/, '') ? `.${fraction.replace(/0+$/, '')}` : ''}`;
  return negative && plain !== '0' ? `-${plain}` : plain;
}

const ulpAt = (places: number) => BigDecimal.fromUnits(1n, places);
const cmp = (a: BigDecimal, b: BigDecimal) => a.compare(b);

describe('BigDecimal laws', () => {
  it('prints what it parsed without redundant zeros', () => {
    fc.assert(fc.property(decimalText, (text) => BigDecimal.parse(text).toFixed() === normalised(text)));
  });

  it('adds, subtracts and multiplies exactly (the sum minus a term is the other term, products commute)', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        const [x, y] = [BigDecimal.parse(a), BigDecimal.parse(b)];
        expect(x.plus(y).minus(y).toFixed()).toBe(x.toFixed());
        expect(x.minus(y).plus(y).toFixed()).toBe(x.toFixed());
        expect(x.times(y).toFixed()).toBe(y.times(x).toFixed());
        expect(x.plus(y).compare(x)).toBe(y.isZero() ? 0 : y.isNegative() ? -1 : 1);
      }),
    );
  });

  it('divides exactly when the quotient fits the places: (x times y) / y is x', () => {
    fc.assert(
      fc.property(decimalText, nonZero, rounding, (a, b, mode) => {
        const [x, y] = [BigDecimal.parse(a), BigDecimal.parse(b)];
        expect(x.times(y).dividedBy(y, 20, mode).toFixed()).toBe(x.toFixed());
      }),
    );
  });

  it('divides to the places asked, by the rule asked (q x d brackets the dividend as the rule says)', () => {
    fc.assert(
      fc.property(decimalText, nonZero, fc.integer({ min: 0, max: 8 }), (a, b, places) => {
        const [x, y] = [BigDecimal.parse(a), BigDecimal.parse(b).abs()];
        const ulp = ulpAt(places);
        const floor = x.dividedBy(y, places, 'floor');
        const ceil = x.dividedBy(y, places, 'ceil');
        expect(cmp(floor.times(y), x)).toBeLessThanOrEqual(0);
        expect(cmp(floor.plus(ulp).times(y), x)).toBeGreaterThan(0);
        expect(cmp(ceil.times(y), x)).toBeGreaterThanOrEqual(0);
        expect(cmp(ceil.minus(ulp).times(y), x)).toBeLessThan(0);
        // Half-up: the nearer of the two, a tie away from zero.
        const half = x.dividedBy(y, places, 'half-up');
        const below = x.minus(floor.times(y)).abs();
        const above = ceil.times(y).minus(x).abs();
        const nearer = cmp(below, above) < 0 ? floor : cmp(below, above) > 0 ? ceil : x.isNegative() ? floor : ceil;
        expect(half.toFixed()).toBe(nearer.toFixed());
      }),
    );
  });

  it('a negative divisor gives the negated quotient of the opposite rule', () => {
    fc.assert(
      fc.property(decimalText, nonZero, (a, b) => {
        const [x, y] = [BigDecimal.parse(a), BigDecimal.parse(b)];
        expect(x.dividedBy(y.negated(), 4, 'floor').toFixed()).toBe(x.dividedBy(y, 4, 'ceil').negated().toFixed());
      }),
    );
  });

  it('compares as the difference says, and floors, ceils and rounds to neighbouring integers', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        const [x, y] = [BigDecimal.parse(a), BigDecimal.parse(b)];
        const difference = x.minus(y);
        expect(x.compare(y)).toBe(difference.isZero() ? 0 : difference.isNegative() ? -1 : 1);
        const [floor, ceil] = [BigDecimal.of(x.floor()), BigDecimal.of(x.ceil())];
        expect(cmp(floor, x)).toBeLessThanOrEqual(0);
        expect(cmp(ceil, x)).toBeGreaterThanOrEqual(0);
        expect(x.ceil() - x.floor()).toBe(x.roundTo(0, 'floor').compare(x) === 0 ? 0n : 1n);
        expect(x.roundHalfUp()).toBe(x.dividedBy(BigDecimal.of(1), 0, 'half-up').floor());
      }),
    );
  });
});

describe('BigDecimal', () => {
  it.each([['2.50', '2.5'], ['000.000', '0'], ['-0.0010', '-0.001'], ['0.0000025', '0.0000025'], ['12', '12']])(
    'prints %s as %s',
    (text, printed) => expect(BigDecimal.parse(text).toFixed()).toBe(printed),
  );

  it.each([['2.5', 3n], ['-2.5', -3n], ['2.4999', 2n], ['-0.5', -1n], ['0.5', 1n], ['7', 7n]])('rounds %s to %s', (text, rounded) =>
    expect(BigDecimal.parse(text).roundHalfUp()).toBe(rounded),
  );

  it.each(['', '1e6', '.5', '5.', ' 1', '+1', '1,5', 'NaN', '0x10'])('refuses %p', (text) =>
    expect(() => BigDecimal.parse(text)).toThrow(`not a decimal: ${JSON.stringify(text)}`),
  );

  it.each([
    ['2.5e-7', '0.00000025'], ['1e+21', '1000000000000000000000'], ['1E3', '1000'], ['.5', '0.5'], ['5.', '5'], ['+3', '3'],
    ['-0.0', '0'], ['12.5e1', '125'], ['123456789012345678901234567890e-10', '12345678901234567890.123456789'],
  ])('reads %s (exponent text, as numbers print) as %s', (text, printed) => expect(BigDecimal.parseScientific(text).toFixed()).toBe(printed));

  it.each(['', '.', 'e5', '1e', '1e1.5', ' 1', 'NaN', 'Infinity', '0x10', '1e1001', '1e-1001'])('refuses %p as exponent text', (text) =>
    expect(() => BigDecimal.parseScientific(text)).toThrow(`not a decimal: ${JSON.stringify(text)}`),
  );

  it('reads exponents up to ±1000, the edge of what it expands', () => {
    expect(BigDecimal.parseScientific('1e1000').toFixed()).toBe(`1${'0'.repeat(1000)}`);
    expect(BigDecimal.parseScientific('1e-1000').toFixed()).toBe(`0.${'0'.repeat(999)}1`);
  });

  it('reads a number by its shortest text, not its binary value', () => {
    expect(BigDecimal.ofNumber(0.1).toFixed()).toBe('0.1');
    expect(BigDecimal.ofNumber(2.5e-7).toFixed()).toBe('0.00000025');
    expect(BigDecimal.ofNumber(-0).toFixed()).toBe('0');
    expect(BigDecimal.ofNumber(Number.MAX_SAFE_INTEGER).toFixed()).toBe('9007199254740991');
    expect(() => BigDecimal.ofNumber(Number.NaN)).toThrow('not a decimal: NaN');
    expect(() => BigDecimal.ofNumber(Number.POSITIVE_INFINITY)).toThrow('not a decimal: Infinity');
  });

  describe('dividedBy', () => {
    const div = (a: string, b: string, places: number, mode: Rounding) => BigDecimal.parse(a).dividedBy(BigDecimal.parse(b), places, mode).toFixed();

    it.each([
      // Halves: away from zero, either sign; just under and just over a half.
      ['1', '8', 2, 'half-up', '0.13'], ['-1', '8', 2, 'half-up', '-0.13'], ['1', '-8', 2, 'half-up', '-0.13'],
      ['0.0625', '1', 3, 'half-up', '0.063'], ['0.06249999999999999999', '1', 3, 'half-up', '0.062'],
      ['2.5', '1', 0, 'half-up', '3'], ['-2.5', '1', 0, 'half-up', '-3'], ['2.4999', '1', 0, 'half-up', '2'],
      // Ceil and floor go towards +inf and -inf, not away from and towards zero.
      ['1', '3', 2, 'ceil', '0.34'], ['-1', '3', 2, 'ceil', '-0.33'], ['1', '3', 2, 'floor', '0.33'], ['-1', '3', 2, 'floor', '-0.34'],
      ['20', '0.25', 0, 'ceil', '80'], ['10.5', '0.7', 0, 'ceil', '15'], ['10.5', '0.8', 0, 'ceil', '14'],
      // Zero, exact quotients, 18+ digit values.
      ['0', '7', 6, 'half-up', '0'], ['-0', '7', 6, 'ceil', '0'], ['48000', '48000', 6, 'half-up', '1'],
      ['1', '48000', 6, 'half-up', '0.000021'], ['1', '3000000', 6, 'half-up', '0'], ['1', '2000000', 6, 'half-up', '0.000001'],
      ['123456789012345678901234567890', '1000000', 6, 'half-up', '123456789012345678901234.56789'],
      ['999999999999999999999999.9999995', '1', 6, 'half-up', '1000000000000000000000000'],
      ['-999999999999999999999999.9999995', '1', 6, 'half-up', '-1000000000000000000000000'],
      ['1', '0.000000000000000000001', 0, 'floor', '1000000000000000000000'],
    ] as const)('%s / %s to %i places, %s: %s', (a, b, places, mode, expected) => expect(div(a, b, places, mode)).toBe(expected));

    it('refuses a zero divisor and places that are not a non-negative integer', () => {
      expect(() => BigDecimal.of(1).dividedBy(BigDecimal.ZERO, 2, 'floor')).toThrow(new RangeError('division by zero'));
      expect(() => BigDecimal.of(1).dividedBy(0, 2, 'floor')).toThrow(new RangeError('division by zero'));
      expect(() => BigDecimal.of(1).dividedBy(3, -1, 'floor')).toThrow(RangeError);
      expect(() => BigDecimal.of(1).dividedBy(3, 1.5, 'floor')).toThrow(RangeError);
    });

    it('takes a number divisor by its shortest text', () => {
      expect(BigDecimal.of(1).dividedBy(0.1, 0, 'floor').toFixed()).toBe('10');
      expect(BigDecimal.of(10).dividedBy(29.97002997002997, 6, 'half-up').toFixed()).toBe('0.333667');
    });
  });

  it.each([
    ['1.0000005', 6, 'half-up', '1.000001'], ['1.0000005', 6, 'floor', '1'], ['-1.0000005', 6, 'half-up', '-1.000001'],
    ['-1.0000005', 6, 'ceil', '-1'], ['1.000000', 6, 'half-up', '1'], ['0.0000004', 6, 'half-up', '0'], ['-0.0000004', 6, 'half-up', '0'],
    ['2', 0, 'ceil', '2'], ['123456789012345678901.5', 0, 'half-up', '123456789012345678902'],
  ] as const)('rounds %s to %i places, %s: %s', (text, places, mode, expected) => expect(BigDecimal.parse(text).roundTo(places, mode).toFixed()).toBe(expected));

  it.each([['2.1', 3n, 2n], ['-2.1', -2n, -3n], ['2', 2n, 2n], ['-0.000001', 0n, -1n], ['0', 0n, 0n], ['12345678901234567890.01', 12345678901234567891n, 12345678901234567890n]])(
    'ceils %s to %s and floors it to %s',
    (text, ceil, floor) => {
      expect(BigDecimal.parse(text).ceil()).toBe(ceil);
      expect(BigDecimal.parse(text).floor()).toBe(floor);
    },
  );

  it('compares across scales, signs and 18+ digits', () => {
    const values = ['-12345678901234567890.5', '-1', '-0.000001', '0', '0.000001', '0.5', '1.0', '12345678901234567890', '12345678901234567890.000001'];
    for (const [i, a] of values.entries()) {
      for (const [j, b] of values.entries()) expect(BigDecimal.parse(a).compare(BigDecimal.parse(b))).toBe(Math.sign(i - j));
    }
    expect(BigDecimal.parse('1.0').compare(BigDecimal.of(1))).toBe(0);
  });

  it('gives the nearest double, and its absolute value', () => {
    expect(BigDecimal.fromUnits(1_234_567n, 6).toNumber()).toBe(1.234567);
    expect(BigDecimal.parse('0.1').plus(BigDecimal.parse('0.2')).toNumber()).toBe(0.3);
    expect(BigDecimal.parse('-12345678901234567890.123').toNumber()).toBe(-12345678901234567890.123);
    expect(BigDecimal.parse('-2.5').abs().toFixed()).toBe('2.5');
    expect(BigDecimal.fromUnits(-5n, 0).abs().toFixed()).toBe('5');
    expect(() => BigDecimal.fromUnits(1n, -1)).toThrow(RangeError);
  });

  it('refuses a number that is not a safe integer', () => {
    expect(() => BigDecimal.of(0.5)).toThrow('not a safe integer: 0.5');
    expect(() => BigDecimal.of(2 ** 53)).toThrow('not a safe integer');
  });
});
