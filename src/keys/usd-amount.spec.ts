import { MAX_USD_NUMBER, usdAmountMicros } from './usd-amount';

describe('USD amounts of the key API', () => {
  it('reads strings exactly: 6 decimals yes, 7 no', () => {
    expect(usdAmountMicros('0.000001')).toBe(1n);
    expect(usdAmountMicros('9999999999999.999999')).toBe(9_999_999_999_999_999_999n);
    expect(usdAmountMicros('0.0000001')).toBeNull();
  });

  it('takes a number that is the double nearest to whole micros, and nothing finer, negative, huge or not finite', () => {
    expect(usdAmountMicros(0.000001)).toBe(1n);
    expect(usdAmountMicros(123.456789)).toBe(123_456_789n);
    expect(usdAmountMicros(0.1 + 0.2)).toBeNull();
    expect(usdAmountMicros(0.0000001)).toBeNull();
    expect(usdAmountMicros(0.1234567)).toBeNull();
    expect(usdAmountMicros(2.2250738585072014e-308)).toBeNull();
    expect(usdAmountMicros(MAX_USD_NUMBER)).toBe(BigInt(MAX_USD_NUMBER) * 1_000_000n);
    expect(usdAmountMicros(MAX_USD_NUMBER + 1)).toBeNull();
    expect(usdAmountMicros(1.0533555548993609e308)).toBeNull();
    expect(usdAmountMicros(-1)).toBeNull();
    expect(usdAmountMicros(Number.NaN)).toBeNull();
    expect(usdAmountMicros(null)).toBeNull();
  });
});
