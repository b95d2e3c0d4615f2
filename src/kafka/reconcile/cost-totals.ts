// Pure reconciliation arithmetic: dedup by event id, exact per organization and UTC day sums in integer
// micros (bigint, so no float ever enters a sum), and exact comparison of two sets of daily totals.

export interface CostRecord {
  eventId: string;
  organizationId: string;
  occurredAt: string;
  /** Null for a request the price book could not price; it counts as unpriced, not as zero. */
  costUsdMicros: number | null;
}

/** UTC days as YYYY-MM-DD; `fromDay` inclusive, `untilDay` exclusive, null = unbounded. */
export interface DayWindow {
  fromDay: string | null;
  untilDay: string | null;
}

export interface DailyCost {
  organizationId: string;
  day: string;
  usdMicros: bigint;
}

export interface DailyTotals {
  /** Keyed by `dailyKey(organizationId, day)`. */
  byDay: Map<string, DailyCost>;
  priced: number;
  unpriced: number;
}

export interface DailyDifference {
  organizationId: string;
  day: string;
  left: bigint;
  right: bigint;
}

export function utcDay(isoTimestamp: string): string {
  const time = Date.parse(isoTimestamp);
  if (Number.isNaN(time)) throw new Error(`not a timestamp: "${isoTimestamp}"`);
  return new Date(time).toISOString().slice(0, 10);
}

export function dailyKey(organizationId: string, day: string): string {
  return `${organizationId}\u0000${day}`;
}

export function inWindow(day: string, window: DayWindow): boolean {
  return (window.fromDay === null || day >= window.fromDay) && (window.untilDay === null || day < window.untilDay);
}

/** Keeps the first record of every event id; at-least-once delivery makes the rest harmless copies. */
export function dedupByEventId<T extends { eventId: string }>(records: T[]): { unique: T[]; duplicates: number } {
  const seen = new Map<string, T>();
  for (const record of records) if (!seen.has(record.eventId)) seen.set(record.eventId, record);
  return { unique: [...seen.values()], duplicates: records.length - seen.size };
}

export function recordsInWindow<T extends { occurredAt: string }>(records: T[], window: DayWindow): T[] {
  return records.filter((record) => inWindow(utcDay(record.occurredAt), window));
}

export function sumDailyCosts(records: CostRecord[]): DailyTotals {
  const totals: DailyTotals = { byDay: new Map(), priced: 0, unpriced: 0 };
  for (const record of records) {
    const day = utcDay(record.occurredAt);
    if (record.costUsdMicros === null) {
      totals.unpriced += 1;
      continue;
    }
    totals.priced += 1;
    const key = dailyKey(record.organizationId, day);
    const entry = totals.byDay.get(key) ?? { organizationId: record.organizationId, day, usdMicros: 0n };
    entry.usdMicros += exactRecordMicros(record.costUsdMicros, record.eventId);
    totals.byDay.set(key, entry);
  }
  return totals;
}

/**
 * Pricing refuses any cost past 2^53 - 1 micros (src/billing/pricing/cost-range.ts), so a JSON number
 * that is not a safe integer was rounded on its way here or never priced by the gateway: refused
 * by name rather than summed approximately.
 */
function exactRecordMicros(micros: number, eventId: string): bigint {
  if (!Number.isSafeInteger(micros)) throw new Error(`event ${eventId}: costUsdMicros ${micros} is not an exact integer of micros`);
  return BigInt(micros);
}

/** Every organization and day where the two sides differ; a day missing on one side counts as zero. */
export function compareDailyTotals(left: Map<string, DailyCost>, right: Map<string, DailyCost>): DailyDifference[] {
  const keys = [...new Set([...left.keys(), ...right.keys()])];
  const differences: DailyDifference[] = [];
  for (const key of keys) {
    const entry = (left.get(key) ?? right.get(key)) as DailyCost;
    const leftMicros = left.get(key)?.usdMicros ?? 0n;
    const rightMicros = right.get(key)?.usdMicros ?? 0n;
    if (leftMicros !== rightMicros) {
      differences.push({ organizationId: entry.organizationId, day: entry.day, left: leftMicros, right: rightMicros });
    }
  }
  return differences.sort((a, b) => a.organizationId.localeCompare(b.organizationId) || a.day.localeCompare(b.day));
}

/** Event ids on one side only: `missing` are in `expected` but not in `actual`, `unexpected` the reverse. */
export function compareEventIds(expected: CostRecord[], actual: CostRecord[]): { missing: string[]; unexpected: string[] } {
  const expectedIds = new Set(expected.map((record) => record.eventId));
  const actualIds = new Set(actual.map((record) => record.eventId));
  return {
    missing: [...expectedIds].filter((id) => !actualIds.has(id)),
    unexpected: [...actualIds].filter((id) => !expectedIds.has(id)),
  };
}
