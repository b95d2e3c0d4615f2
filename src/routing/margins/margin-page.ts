// GET /v1/margins (docs/routing.md "Margins"): the operator's revenue, cost of goods and margin per UTC
// day, grouped by model, deployment or organization, in exact integer micros as decimal text. Paged like
// the cost page (src/costs/domain/cost-page.ts), whose planning and signed cursors it reuses; the cursor
// names the margins query, so it continues no other.
import { RequestValidationError, type ValidationIssue } from '../../common/api-error';
import { integer, scalar, type RawCostQuery } from '../../costs/domain/cost-query';
import { planCostPage, type CostPagePlan } from '../../costs/domain/cost-page';
import { signCursor } from '../../costs/domain/page-cursor';
import { SECONDS_PER_DAY, dayOfUnixSeconds } from '../../costs/domain/utc-day';
import type { MarginDimension } from './margin.fold';
import type { MarginRow } from './margin.projection';

export const MARGIN_GROUPINGS: readonly MarginDimension[] = ['model', 'deployment', 'organization'];
export const DEFAULT_MARGIN_LIMIT = 7;
export const MAX_MARGIN_LIMIT = 31;

export interface MarginQuery {
  startTime: number;
  endTime: number | null;
  groupBy: MarginDimension;
  limit: number;
  page: string | null;
}

export interface MarginResult {
  object: 'margins.result';
  model?: string;
  deployment?: string | null;
  organization_id?: string;
  requests: number;
  /** Requests served where no cost of goods is known (a deployment without `cost`, or not recorded). */
  requests_with_unknown_cost: number;
  revenue_usd_micros: string;
  cost_of_goods_usd_micros: string;
  /** Revenue of the requests with a known cost of goods minus that cost. */
  margin_usd_micros: string;
}

export interface MarginPage {
  object: 'page';
  data: { object: 'bucket'; start_time: number; end_time: number; results: MarginResult[] }[];
  has_more: boolean;
  next_page: string | null;
}

export function parseMarginQuery(raw: RawCostQuery): MarginQuery {
  const issues: ValidationIssue[] = [];
  const startTime = integer(raw, 'start_time', { ge: 0 }, issues);
  if (scalar(raw, 'start_time') === undefined) issues.push({ loc: ['query', 'start_time'], msg: 'Field required', type: 'missing', input: null });
  const endTime = integer(raw, 'end_time', { ge: 0 }, issues);
  const limit = integer(raw, 'limit', { ge: 1, le: MAX_MARGIN_LIMIT }, issues);
  const groupBy = scalar(raw, 'group_by') ?? 'model';
  if (!(MARGIN_GROUPINGS as readonly string[]).includes(groupBy)) {
    issues.push({ loc: ['query', 'group_by'], msg: "Input should be 'model', 'deployment' or 'organization'", type: 'literal_error', input: groupBy });
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
  return { startTime: startTime!, endTime: endTime ?? null, groupBy: groupBy as MarginDimension, limit: limit ?? DEFAULT_MARGIN_LIMIT, page: scalar(raw, 'page') || null };
}

export function planMarginPage(query: MarginQuery, nowSeconds: number, secret: string): CostPagePlan {
  return planCostPage({ ...query, groupBy: null }, { organizationId: `margins:${query.groupBy}`, nowSeconds, secret });
}

export function buildMarginPage(plan: CostPagePlan, groupBy: MarginDimension, rows: MarginRow[], secret: string): MarginPage {
  const data: MarginPage['data'] = [];
  for (let start = plan.pageStart; start < plan.pageEnd; start += SECONDS_PER_DAY) {
    const day = dayOfUnixSeconds(start);
    data.push({ object: 'bucket', start_time: start, end_time: start + SECONDS_PER_DAY, results: rows.filter((r) => r.day === day).map((r) => resultOf(groupBy, r)) });
  }
  const next = plan.hasMore ? signCursor({ ...plan.cursor, nextBucketStart: plan.pageEnd }, secret) : null;
  return { object: 'page', data, has_more: plan.hasMore, next_page: next };
}

function resultOf(groupBy: MarginDimension, row: MarginRow): MarginResult {
  const result: MarginResult = {
    object: 'margins.result',
    requests: row.requests,
    requests_with_unknown_cost: row.unknownCostRequests,
    revenue_usd_micros: String(row.revenueUsdMicros),
    cost_of_goods_usd_micros: String(row.costOfGoodsUsdMicros),
    margin_usd_micros: String(row.costedRevenueUsdMicros - row.costOfGoodsUsdMicros),
  };
  if (groupBy === 'organization') result.organization_id = row.value;
  else if (groupBy === 'model') result.model = row.value;
  else {
    const slash = row.value.indexOf('/');
    result.model = row.value.slice(0, slash);
    result.deployment = row.value.slice(slash + 1) || null;
  }
  return result;
}
