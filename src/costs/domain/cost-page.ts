// The organization cost page: whole UTC-day buckets from the day containing start_time up to (not
// including) the first midnight at or after end_time, `limit` buckets per page, empty days included.
// Two steps so the caller reads only the page's days: planCostPage, then buildCostPage with the rows.
import { BigDecimal } from '../../common/big-decimal';
import { ApiError } from '../../common/api-error';
import type { CostGrouping, CostQuery } from './cost-query';
import { renderCostCsv } from './cost-csv';
import type { CostRow, MicrosBucket } from './cost-rows';
import { invalidCursor, signCursor, verifyCursor, type CostCursor } from './page-cursor';
import { SECONDS_PER_DAY, ceilToDay, dayOfUnixSeconds, floorToDay, type UtcDay } from './utc-day';



export interface CostPagePlan {
  cursor: CostCursor;
  /** Unix seconds of this page's first bucket and of the end of its last one. */
  pageStart: number;
  pageEnd: number;
  /** Days to read: [fromDay, toDay). */
  fromDay: UtcDay;
  toDay: UtcDay;
  hasMore: boolean;
}

export interface CostResult {
  object: 'organization.costs.result';
  amount: { value: number; currency: 'usd' };
  line_item: string | null;
  /** Extensions, present only when grouped by them. */
  model?: string;
  api_key_id?: string | null;
}

export interface CostBucket {
  object: 'bucket';
  start_time: number;
  end_time: number;
  results: CostResult[];
}

export interface CostPage {
  object: 'page';
  data: CostBucket[];
  has_more: boolean;
  next_page: string | null;
}

export interface CostPageContext {
  organizationId: string;
  nowSeconds: number;
  /** Server secret that signs cursors (GATEWAY_CURSOR_SECRET). */
  secret: string;
}

export function planCostPage(query: CostQuery, { organizationId, nowSeconds, secret }: CostPageContext): CostPagePlan {
  const cursor = query.page === null ? firstPageCursor(query, organizationId, nowSeconds) : resumedCursor(query, organizationId, secret);
  const rangeEnd = ceilToDay(cursor.endTime);
  const pageStart = cursor.nextBucketStart;
  const pageEnd = Math.min(pageStart + query.limit * SECONDS_PER_DAY, Math.max(rangeEnd, pageStart));
  return { cursor, pageStart, pageEnd, fromDay: dayOfUnixSeconds(pageStart), toDay: dayOfUnixSeconds(pageEnd), hasMore: pageEnd < rangeEnd };
}

export function buildCostPage(plan: CostPagePlan, rows: CostRow[], secret: string): CostPage {
  const toResult = resultOf(plan.cursor.groupBy);
  const data = pageBuckets(plan, rows).map(({ startTime, endTime, rows: ofDay }): CostBucket => ({
    object: 'bucket',
    start_time: startTime,
    end_time: endTime,
    results: ofDay.map(toResult),
  }));
  return { object: 'page', data, has_more: plan.hasMore, next_page: nextPage(plan, secret) };
}

/** The same page as CSV (docs/costs.md): its rows in exact decimal USD. */
export function buildCostCsv(plan: CostPagePlan, rows: CostRow[]): string {
  return renderCostCsv(pageBuckets(plan, rows), plan.cursor.groupBy);
}

export function nextPage(plan: CostPagePlan, secret: string): string | null {
  return plan.hasMore ? signCursor({ ...plan.cursor, nextBucketStart: plan.pageEnd }, secret) : null;
}

/** Every day of the page in order, empty ones included, each with its rows sorted by group. */
export function pageBuckets(plan: CostPagePlan, rows: CostRow[]): MicrosBucket[] {
  const byDay = new Map<UtcDay, CostRow[]>();
  for (const row of rows) {
    const ofDay = byDay.get(row.day);
    if (ofDay) ofDay.push(row);
    else byDay.set(row.day, [row]);
  }
  const buckets: MicrosBucket[] = [];
  for (let start = plan.pageStart; start < plan.pageEnd; start += SECONDS_PER_DAY) {
    buckets.push({ startTime: start, endTime: start + SECONDS_PER_DAY, rows: (byDay.get(dayOfUnixSeconds(start)) ?? []).sort(byGroup) });
  }
  return buckets;
}

function firstPageCursor(query: CostQuery, organizationId: string, nowSeconds: number): CostCursor {
  const endTime = query.endTime ?? nowSeconds;
  if (endTime < query.startTime) {
    throw ApiError.badRequest('invalid_time_range', `end_time (${endTime}) is before start_time (${query.startTime})`, 'end_time');
  }
  const { startTime, groupBy } = query;
  return { organizationId, startTime, endTime, groupBy, nextBucketStart: floorToDay(startTime) };
}

/** A cursor continues the query that produced it; the same parameters must come with it. */
function resumedCursor(query: CostQuery, organizationId: string, secret: string): CostCursor {
  const cursor = verifyCursor(query.page!, secret);
  const sameQuery =
    cursor.organizationId === organizationId &&
    cursor.startTime === query.startTime &&
    cursor.groupBy === query.groupBy &&
    (query.endTime === null || query.endTime === cursor.endTime);
  if (!sameQuery) throw invalidCursor('it belongs to a different query');
  return cursor;
}

function byGroup(a: CostRow, b: CostRow): number {
  const left = a.group ?? '';
  const right = b.group ?? '';
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The spec's result; a model or key grouping names its group in a field of its own, line_item null. */
function resultOf(groupBy: CostGrouping | null): (row: CostRow) => CostResult {
  return (row) => {
    const result: CostResult = { object: 'organization.costs.result', amount: { value: usdValue(row.amountUsdMicros), currency: 'usd' }, line_item: groupBy === 'line_item' ? row.group : null };
    if (groupBy === 'model') result.model = row.group ?? '';
    if (groupBy === 'api_key_id') result.api_key_id = row.group;
    return result;
  };
}

function usdValue(micros: bigint): number {
  return BigDecimal.fromUnits(micros, 6).toNumber();
}
