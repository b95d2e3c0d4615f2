import { sumDecimalTexts, toDecimalText } from './decimal-text';

describe('toDecimalText', () => {
  it.each([
    ['0.0000025', '0.0000025'],
    ['1.50', '1.5'],
    ['007', '7'],
    ['-0.25', '-0.25'],
    ['0', '0'],
    [0, '0'],
    [-0, '0'],
    [12, '12'],
    [0.0000025, '0.0000025'],
    [2.5e-7, '0.00000025'],
    [1e-7, '0.0000001'],
    [1e21, '1000000000000000000000'],
    [0.1, '0.1'],
  ])('%p -> %p', (input, expected) => {
    expect(toDecimalText(input)).toBe(expected);
  });

  it('passes null through as an absent price', () => {
    expect(toDecimalText(null)).toBeNull();
  });

  it.each(['abc', '1e', '1e-7', '', ' 1', '1.', '.5', '+1', '0x10', '1,5', 'NaN'])('rejects the string %p', (input) => {
    expect(() => toDecimalText(input)).toThrow(/^not a decimal/);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects the number %p', (input) => {
    expect(() => toDecimalText(input)).toThrow(/^not a decimal/);
  });
});

describe('sumDecimalTexts', () => {
  it.each([
    [[], '0'],
    [['0.1', '0.2'], '0.3'],
    [['1.5', '0.25', '2'], '3.75'],
    [['0.000001', '12345678901234567890.000001'], '12345678901234567890.000002'],
  ])('%p sums to %p', (values, expected) => {
    expect(sumDecimalTexts(values)).toBe(expected);
  });
});
