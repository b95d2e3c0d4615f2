// The organization cost page: whole UTC-day buckets from the day containing start_time up to (not
// including) the first midnight at or after end_time, `limit` buckets per page, empty days included.
// Two steps so the caller reads only the page's days: planCostPage, then buildCostPage with the rows.
import Decimal from 'decimal.js';
import { ApiError } from '../../common/api-error';
import type { CostQuery } from './cost-query';
import { invalidCursor, signCursor, verifyCursor, type CostCursor } from './page-cursor';
import { SECONDS_PER_DAY, ceilToDay, dayOfUnixSeconds, floorToDay, type UtcDay } from './utc-day';

/** One read-model row: a line item's sum, or (lineItem null) the day's billed total. */
export interface CostRow {
  day: UtcDay;
  lineItem: string | null;
  amountUsdMicros: bigint;
}

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
  const byDay = new Map<UtcDay, CostRow[]>();
  for (const row of rows) {
    const ofDay = byDay.get(row.day);
    if (ofDay) ofDay.push(row);
    else byDay.set(row.day, [row]);
  }
  const data: CostBucket[] = [];
  for (let start = plan.pageStart; start < plan.pageEnd; start += SECONDS_PER_DAY) {
    const results = (byDay.get(dayOfUnixSeconds(start)) ?? []).sort(byLineItem).map(toResult);
    data.push({ object: 'bucket', start_time: start, end_time: start + SECONDS_PER_DAY, results });
  }
  const next_page = plan.hasMore ? signCursor({ ...plan.cursor, nextBucketStart: plan.pageEnd }, secret) : null;
  return { object: 'page', data, has_more: plan.hasMore, next_page };
}

function firstPageCursor(query: CostQuery, organizationId: string, nowSeconds: number): CostCursor {
  const endTime = query.endTime ?? nowSeconds;
  if (endTime < query.startTime) {
    throw ApiError.badRequest('invalid_time_range', `end_time (${endTime}) is before start_time (${query.startTime})`, 'end_time');
  }
  const { startTime, groupByLineItem } = query;
  return { organizationId, startTime, endTime, groupByLineItem, nextBucketStart: floorToDay(startTime) };
}

/** A cursor continues the query that produced it; the same parameters must come with it. */
function resumedCursor(query: CostQuery, organizationId: string, secret: string): CostCursor {
  const cursor = verifyCursor(query.page!, secret);
  const sameQuery =
    cursor.organizationId === organizationId &&
    cursor.startTime === query.startTime &&
    cursor.groupByLineItem === query.groupByLineItem &&
    (query.endTime === null || query.endTime === cursor.endTime);
  if (!sameQuery) throw invalidCursor('it belongs to a different query');
  return cursor;
}

function byLineItem(a: CostRow, b: CostRow): number {
  const left = a.lineItem ?? '';
  const right = b.lineItem ?? '';
  return left < right ? -1 : left > right ? 1 : 0;
}

function toResult(row: CostRow): CostResult {
  const value = new Decimal(row.amountUsdMicros.toString()).div(1_000_000).toNumber();
  return { object: 'organization.costs.result', amount: { value, currency: 'usd' }, line_item: row.lineItem };
}
