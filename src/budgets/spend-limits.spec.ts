import { limitWindow, microsToUsd, spendLimitOf, usdToMicros } from './spend-limits';

describe('usdToMicros', () => {
  it.each([
    ['0.001', 1_000n],
    ['12.5', 12_500_000n],
    ['0', 0n],
    ['0.000001', 1n],
    ['9999999999999.999999', 9_999_999_999_999_999_999n],
    [0.001, 1_000n],
    [25, 25_000_000n],
  ])('%s is %s micros', (usd, micros) => expect(usdToMicros(usd)).toBe(micros));

  it.each([['0.0000001'], ['-1'], ['1e3'], ['01'], [''], ['10000000000000'], [' 1'], [Number.NaN], [1e-7], [-0.5]])('%s is refused', (usd) =>
    expect(usdToMicros(usd)).toBeNull());
});

describe('microsToUsd', () => {
  it.each([
    [1_000n, '0.001'],
    [12_500_000n, '12.5'],
    [0n, '0'],
    [1n, '0.000001'],
    [-2_000_000n, '-2'],
  ])('%s micros is %s', (micros, usd) => expect(microsToUsd(micros)).toBe(usd));
});

describe('spendLimitOf', () => {
  it('reads a configured limit; none is null; a bad amount throws', () => {
    expect(spendLimitOf({ limit_usd: '0.001', limit_reset: 'daily' })).toEqual({ limitUsdMicros: 1_000n, reset: 'daily' });
    expect(spendLimitOf({ limit_usd: 3 })).toEqual({ limitUsdMicros: 3_000_000n, reset: null });
    expect(spendLimitOf(null)).toBeNull();
    expect(() => spendLimitOf({ limit_usd: '1.0000001' })).toThrow(RangeError);
  });
});

describe('limitWindow', () => {
  const at = (iso: string) => Date.parse(iso);
  it('daily: the UTC day', () =>
    expect(limitWindow('daily', at('2026-11-24T23:59:59.999Z'))).toEqual({ start: at('2026-11-24T00:00:00Z'), end: at('2026-11-25T00:00:00Z') }));
  it('weekly: from Monday 00:00 UTC (Sunday belongs to the week before)', () => {
    expect(limitWindow('weekly', at('2026-11-29T12:00:00Z'))).toEqual({ start: at('2026-11-23T00:00:00Z'), end: at('2026-11-30T00:00:00Z') });
    expect(limitWindow('weekly', at('2026-11-30T00:00:00Z'))).toEqual({ start: at('2026-11-30T00:00:00Z'), end: at('2026-12-07T00:00:00Z') });
  });
  it('monthly: the calendar month, across a year end', () =>
    expect(limitWindow('monthly', at('2026-12-31T23:00:00Z'))).toEqual({ start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') }));
  it('lifetime: never resets', () => expect(limitWindow(null, 5)).toEqual({ start: 0, end: null }));
});
