// The Margins view's table (management key, GET /v1/margins): one row per group over the pages read,
// revenue, cost of goods and margin summed exactly as BigInt micros from the API's integer-micros text.
import { formatUsd } from './money';

export type MarginGrouping = 'model' | 'deployment' | 'organization';

export interface MarginResultJson {
  model?: string;
  deployment?: string | null;
  organization_id?: string;
  requests: number;
  requests_with_unknown_cost: number;
  revenue_usd_micros: string;
  cost_of_goods_usd_micros: string;
  margin_usd_micros: string;
}

export interface MarginPageJson {
  data: { start_time: number; results: MarginResultJson[] }[];
  has_more: boolean;
  next_page: string | null;
}

export interface MarginRow {
  group: string;
  requests: number;
  unknownCost: number;
  revenueMicros: bigint;
  costMicros: bigint;
  marginMicros: bigint;
}

export function marginGroupLabel(result: MarginResultJson, grouping: MarginGrouping): string {
  if (grouping === 'organization') return result.organization_id ?? '';
  if (grouping === 'model') return result.model ?? '';
  return `${result.model ?? ''} / ${result.deployment ?? '(unknown)'}`;
}

/** Rows sorted by group; a total row last. */
export function buildMarginTable(pages: readonly MarginPageJson[], grouping: MarginGrouping): MarginRow[] {
  const rows = new Map<string, MarginRow>();
  for (const result of pages.flatMap((page) => page.data.flatMap((bucket) => bucket.results))) {
    const group = marginGroupLabel(result, grouping);
    const row = rows.get(group) ?? { group, requests: 0, unknownCost: 0, revenueMicros: 0n, costMicros: 0n, marginMicros: 0n };
    row.requests += result.requests;
    row.unknownCost += result.requests_with_unknown_cost;
    row.revenueMicros += BigInt(result.revenue_usd_micros);
    row.costMicros += BigInt(result.cost_of_goods_usd_micros);
    row.marginMicros += BigInt(result.margin_usd_micros);
    rows.set(group, row);
  }
  const sorted = [...rows.values()].sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  const total = sorted.reduce(
    (sum, r) => ({ ...sum, requests: sum.requests + r.requests, unknownCost: sum.unknownCost + r.unknownCost, revenueMicros: sum.revenueMicros + r.revenueMicros, costMicros: sum.costMicros + r.costMicros, marginMicros: sum.marginMicros + r.marginMicros }),
    { group: 'Total', requests: 0, unknownCost: 0, revenueMicros: 0n, costMicros: 0n, marginMicros: 0n },
  );
  return [...sorted, total];
}

/** USD text of a row's amounts, for display. */
export function marginCells(row: MarginRow): string[] {
  return [row.group, String(row.requests), String(row.unknownCost), formatUsd(row.revenueMicros), formatUsd(row.costMicros), formatUsd(row.marginMicros)];
}
