import {
  compareDailyTotals,
  compareEventIds,
  dailyKey,
  dedupByEventId,
  recordsInWindow,
  sumDailyCosts,
  utcDay,
  type CostRecord,
} from './cost-totals';

const record = (eventId: string, organizationId: string, occurredAt: string, costUsdMicros: number | null): CostRecord => ({
  eventId,
  organizationId,
  occurredAt,
  costUsdMicros,
});

describe('reconciliation arithmetic', () => {
  it('assigns timestamps to their UTC day whatever the offset', () => {
    expect(utcDay('2026-11-20T23:59:59.999Z')).toBe('2026-11-20');
    expect(utcDay('2026-11-21T01:30:00+02:00')).toBe('2026-11-20');
    expect(() => utcDay('yesterday')).toThrow(/not a timestamp/);
  });

  it('keeps one record per event id and counts the copies it removed', () => {
    const records = [record('a', 'o', '2026-11-20T00:00:00Z', 5), record('b', 'o', '2026-11-20T00:00:00Z', 7), record('a', 'o', '2026-11-20T00:00:00Z', 5)];
    const { unique, duplicates } = dedupByEventId(records);
    expect(unique.map((kept) => kept.eventId)).toEqual(['a', 'b']);
    expect(duplicates).toBe(1);
  });

  it('sums exactly per organization and day, beyond the range where doubles stay exact', () => {
    const big = 2 ** 53 - 1;
    const totals = sumDailyCosts([
      record('1', 'org-a', '2026-11-20T10:00:00Z', big),
      record('2', 'org-a', '2026-11-20T11:00:00Z', 3),
      record('3', 'org-a', '2026-11-21T00:00:00Z', 10),
      record('4', 'org-b', '2026-11-20T12:00:00Z', 1),
      record('5', 'org-b', '2026-11-20T13:00:00Z', null),
    ]);
    expect(totals.byDay.get(dailyKey('org-a', '2026-11-20'))?.usdMicros).toBe(9007199254740994n);
    expect(totals.byDay.get(dailyKey('org-a', '2026-11-21'))?.usdMicros).toBe(10n);
    expect(totals.byDay.get(dailyKey('org-b', '2026-11-20'))?.usdMicros).toBe(1n);
    expect(totals).toMatchObject({ priced: 4, unpriced: 1 });
  });

  it.each([2 ** 53, 1.5, 1e22])('refuses a cost of %p micros by event id instead of summing it approximately', (micros) => {
    expect(() => sumDailyCosts([record('evt-9', 'org-a', '2026-11-20T10:00:00Z', micros)])).toThrow(/event evt-9: costUsdMicros .* is not an exact integer/);
  });

  it('keeps records from the first day of the window up to, not including, the last', () => {
    const records = ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21'].map((day) => record(day, 'o', `${day}T12:00:00Z`, 1));
    const kept = recordsInWindow(records, { fromDay: '2026-11-19', untilDay: '2026-11-21' });
    expect(kept.map((r) => r.eventId)).toEqual(['2026-11-19', '2026-11-20']);
    expect(recordsInWindow(records, { fromDay: null, untilDay: null })).toHaveLength(4);
  });

  it('reports each organization-day that differs, a day missing on one side counting as zero', () => {
    const left = sumDailyCosts([record('1', 'org-a', '2026-11-20T00:00:00Z', 10), record('2', 'org-b', '2026-11-20T00:00:00Z', 4)]);
    const right = sumDailyCosts([record('1', 'org-a', '2026-11-20T00:00:00Z', 10), record('3', 'org-a', '2026-11-21T00:00:00Z', 2)]);
    expect(compareDailyTotals(left.byDay, right.byDay)).toEqual([
      { organizationId: 'org-a', day: '2026-11-21', left: 0n, right: 2n },
      { organizationId: 'org-b', day: '2026-11-20', left: 4n, right: 0n },
    ]);
    expect(compareDailyTotals(left.byDay, left.byDay)).toEqual([]);
  });

  it('finds event ids present on one side only', () => {
    const at = '2026-11-20T00:00:00Z';
    const ids = compareEventIds([record('a', 'o', at, 1), record('b', 'o', at, 1)], [record('b', 'o', at, 1), record('c', 'o', at, 1)]);
    expect(ids).toEqual({ missing: ['a'], unexpected: ['c'] });
  });
});
