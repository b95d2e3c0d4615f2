import { csvField, microsToFixedUsd, prefersCsv, renderCostCsv } from './cost-csv';
import { buildCostCsv, buildCostPage, planCostPage } from './cost-page';
import { parseCostQuery } from './cost-query';
import { unixSecondsOfDay } from './utc-day';

const march = (day: number): number => unixSecondsOfDay(`2025-03-${String(day).padStart(2, '0')}`);

describe('microsToFixedUsd', () => {
  it.each([
    [0n, '0.000000'],
    [1n, '0.000001'],
    [999_999n, '0.999999'],
    [1_000_000n, '1.000000'],
    [1_500_250n, '1.500250'],
    [9_007_199_254_740_993n, '9007199254.740993'],
    [-3n, '-0.000003'],
  ])('%s micros is %s', (micros, usd) => expect(microsToFixedUsd(micros)).toBe(usd));
});

describe('csvField', () => {
  it('quotes commas, quotes and line breaks, and defuses spreadsheet formulas', () => {
    expect(csvField('aria, input text tokens')).toBe('"aria, input text tokens"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('a\nb')).toBe('"a\nb"');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField('key-1')).toBe('key-1');
  });
});

describe('renderCostCsv', () => {
  it('writes one line per result with exact amounts, the grouping as a column, nothing for empty days', () => {
    const buckets = [
      { startTime: march(1), endTime: march(2), rows: [{ day: '2025-03-01', group: 'aria', amountUsdMicros: 1_500_250n }, { day: '2025-03-01', group: null, amountUsdMicros: 7n }] },
      { startTime: march(2), endTime: march(3), rows: [] },
    ];
    expect(renderCostCsv(buckets, 'model')).toBe(
      `start_time,end_time,date,model,amount_usd,currency\r\n${march(1)},${march(2)},2025-03-01,aria,1.500250,usd\r\n${march(1)},${march(2)},2025-03-01,,0.000007,usd\r\n`,
    );
    expect(renderCostCsv([buckets[1]], null)).toBe('start_time,end_time,date,amount_usd,currency\r\n');
  });

  it('holds the same amounts as the JSON page of the same query', () => {
    const plan = planCostPage(parseCostQuery({ start_time: String(march(1)), end_time: String(march(3)), group_by: 'api_key_id' }), { organizationId: 'o', nowSeconds: march(9), secret: 's' });
    const rows = [{ day: '2025-03-02', group: 'k1', amountUsdMicros: 3n }, { day: '2025-03-01', group: 'k2', amountUsdMicros: 1_000_001n }];
    const page = buildCostPage(plan, rows.map((row) => ({ ...row })), 's');
    const csvAmounts = buildCostCsv(plan, rows).trim().split('\r\n').slice(1).map((line) => [line.split(',')[3], Number(line.split(',')[4])]);
    const jsonAmounts = page.data.flatMap((bucket) => bucket.results.map((result) => [result.api_key_id, result.amount.value]));
    expect(csvAmounts).toEqual(jsonAmounts);
    expect(jsonAmounts).toEqual([['k2', 1.000001], ['k1', 0.000003]]);
  });
});

describe('prefersCsv', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['text/csv', true],
    ['text/csv, application/json;q=0.9', true],
    ['application/json, text/csv', false],
    ['text/csv;q=0.5, */*;q=0.5', false],
    ['text/csv;q=0', false],
    ['*/*', false],
    ['TEXT/CSV', true],
  ])('Accept %p prefers CSV: %p', (accept, expected) => expect(prefersCsv(accept)).toBe(expected));
});
