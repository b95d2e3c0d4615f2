// The console's pure parts: exact money from the API's amounts, the day x group fold, CSV joining.
import { amountToMicros, formatUsd, sumMicros, usdToMicros } from '../../console/lib/money';
import { buildCostTable, joinCsvPages, NO_KEY_LABEL, stackedHeights } from '../../console/lib/cost-table';

describe('console money', () => {
  it.each([
    [0, 0n],
    [0.000001, 1n],
    [1.50025, 1_500_250n],
    [0.1, 100_000n],
    [123456789.123457, 123_456_789_123_457n],
    [1e-7, 0n],
  ])('reads the API amount %p as %p micros', (value, micros) => expect(amountToMicros(value)).toBe(micros));

  it('sums what floats cannot: ten times 0.1 is exactly 1', () => {
    const tenths = Array.from({ length: 10 }, () => amountToMicros(0.1));
    expect(sumMicros(tenths)).toBe(1_000_000n);
    expect(Array.from({ length: 10 }, () => 0.1).reduce((a, b) => a + b)).not.toBe(1);
  });

  it('parses decimal USD strings exactly and refuses more than six decimals', () => {
    expect(usdToMicros('1.500250')).toBe(1_500_250n);
    expect(usdToMicros('-0.000003')).toBe(-3n);
    expect(() => usdToMicros('0.0000001')).toThrow(RangeError);
    expect(() => usdToMicros('1e-6')).toThrow(RangeError);
  });

  it('formats with six decimals and thousands separators', () => {
    expect(formatUsd(1_234_567_890_001n)).toBe('$1,234,567.890001');
    expect(formatUsd(3n)).toBe('$0.000003');
  });
});

describe('buildCostTable', () => {
  const page = (days: [number, [string | null, number][]][], grouping: 'model' | 'api_key_id') => ({
    has_more: false,
    next_page: null,
    data: days.map(([start, results]) => ({ start_time: start, end_time: start + 86_400, results: results.map(([group, value]) => ({ amount: { value }, [grouping]: group })) })),
  });

  it('folds pages into exact day and group totals, largest group first, empty days kept', () => {
    const table = buildCostTable(
      [page([[0, [['k1', 0.1], ['k2', 0.2]]], [86_400, []]], 'api_key_id'), page([[172_800, [['k2', 0.000001], [null, 5]]]], 'api_key_id')],
      'api_key_id',
    );
    expect(table.days).toEqual([0, 86_400, 172_800]);
    expect(table.groups).toEqual([NO_KEY_LABEL, 'k2', 'k1']);
    expect(table.dayTotals).toEqual([300_000n, 0n, 5_000_001n]);
    expect(table.groupTotals.get('k2')).toBe(200_001n);
    expect(table.total).toBe(5_300_001n);
  });

  it('stacks heights so the tallest series is the day total', () => {
    const table = buildCostTable([page([[0, [['a', 1], ['b', 2]]], [86_400, [['a', 0.5]]]], 'model')], 'model');
    expect(table.groups).toEqual(['b', 'a']);
    expect(stackedHeights(table)).toEqual([[3, 0.5], [1, 0.5]]);
  });
});

describe('joinCsvPages', () => {
  it('keeps the header once', () => {
    expect(joinCsvPages(['h\r\n1\r\n', 'h\r\n2\r\n', 'h\r\n'])).toBe('h\r\n1\r\n2\r\n');
    expect(joinCsvPages([])).toBe('');
  });
});
