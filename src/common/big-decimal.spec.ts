import fc from 'fast-check';
import { BigDecimal } from './big-decimal';
import { ExactDecimal } from './decimal';

// Decimal text shaped like prices, quantities and micros: up to 12 whole and 12 fractional digits,
// either sign, with leading and trailing zeros.
const decimalText = fc
  .tuple(fc.boolean(), fc.stringMatching(/^\d{1,12}$/), fc.option(fc.stringMatching(/^\d{1,12}$/), { nil: undefined }))
  .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);

const reference = (text: string) => new ExactDecimal(text);

describe('BigDecimal agrees with decimal.js', () => {
  it('parses and prints plain decimal text', () => {
    fc.assert(fc.property(decimalText, (text) => BigDecimal.parse(text).toFixed() === reference(text).toFixed()));
  });

  it('adds, subtracts and multiplies exactly', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        const [x, y] = [BigDecimal.parse(a), BigDecimal.parse(b)];
        expect(x.plus(y).toFixed()).toBe(reference(a).plus(b).toFixed());
        expect(x.minus(y).toFixed()).toBe(reference(a).minus(b).toFixed());
        expect(x.times(y).toFixed()).toBe(reference(a).times(b).toFixed());
      }),
    );
  });

  it('multiplies by a safe integer', () => {
    fc.assert(
      fc.property(decimalText, fc.maxSafeInteger(), (a, n) => BigDecimal.parse(a).times(n).toFixed() === reference(a).times(n).toFixed()),
    );
  });

  it('compares, floors and rounds halves away from zero', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        const x = BigDecimal.parse(a);
        expect(x.compare(BigDecimal.parse(b))).toBe(reference(a).comparedTo(b));
        expect(x.floor().toString()).toBe(reference(a).floor().toFixed());
        expect(x.roundHalfUp().toString()).toBe(reference(a).toDecimalPlaces(0, ExactDecimal.ROUND_HALF_UP).toFixed());
        expect(x.isZero()).toBe(reference(a).isZero());
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

  it('refuses a number that is not a safe integer', () => {
    expect(() => BigDecimal.of(0.5)).toThrow('not a safe integer: 0.5');
    expect(() => BigDecimal.of(2 ** 53)).toThrow('not a safe integer');
  });
});
