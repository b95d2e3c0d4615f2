// The costs view's data: the cost API's pages folded into a day x group table of exact micros, with
// per-day, per-group and range totals, and the cumulative float series a stacked chart draws.
import { amountToMicros, microsToFloatUsd, sumMicros } from './money';

export type Grouping = 'line_item' | 'model' | 'api_key_id';

export interface CostResultJson {
  amount: { value: number };
  line_item?: string | null;
  model?: string;
  api_key_id?: string | null;
}

export interface CostPageJson {
  data: { start_time: number; end_time: number; results: CostResultJson[] }[];
  has_more: boolean;
  next_page: string | null;
}

export interface CostTable {
  /** Unix seconds of each day, ascending. */
  days: number[];
  /** Group labels, largest total first. */
  groups: string[];
  /** micros[group][dayIndex]. */
  cells: Map<string, bigint[]>;
  dayTotals: bigint[];
  groupTotals: Map<string, bigint>;
  total: bigint;
}

export const NO_KEY_LABEL = '(no key recorded)';

export function groupLabel(result: CostResultJson, grouping: Grouping): string {
  if (grouping === 'model') return result.model ?? '';
  if (grouping === 'api_key_id') return result.api_key_id ?? NO_KEY_LABEL;
  return result.line_item ?? '';
}

export function buildCostTable(pages: readonly CostPageJson[], grouping: Grouping): CostTable {
  const buckets = pages.flatMap((page) => page.data);
  const days = buckets.map((bucket) => bucket.start_time);
  const cells = new Map<string, bigint[]>();
  buckets.forEach((bucket, dayIndex) => {
    for (const result of bucket.results) {
      const label = groupLabel(result, grouping);
      let row = cells.get(label);
      if (!row) cells.set(label, (row = days.map(() => 0n)));
      row[dayIndex] += amountToMicros(result.amount.value);
    }
  });
  const groupTotals = new Map([...cells].map(([label, row]) => [label, sumMicros(row)]));
  const groups = [...cells.keys()].sort((a, b) => {
    const difference = groupTotals.get(b)! - groupTotals.get(a)!;
    return difference > 0n ? 1 : difference < 0n ? -1 : a < b ? -1 : a > b ? 1 : 0;
  });
  const dayTotals = days.map((_, dayIndex) => sumMicros(groups.map((label) => cells.get(label)![dayIndex])));
  return { days, groups, cells, dayTotals, groupTotals, total: sumMicros(dayTotals) };
}

/**
 * Cumulative heights for a stacked bar chart, tallest first: series i is the sum of groups i..n-1,
 * so drawing them in order leaves each group's own band visible. Floats, for drawing only.
 */
export function stackedHeights(table: CostTable): number[][] {
  const series: number[][] = [];
  let running = table.days.map(() => 0n);
  for (let index = table.groups.length - 1; index >= 0; index--) {
    const row = table.cells.get(table.groups[index])!;
    running = running.map((value, day) => value + row[day]);
    series.unshift(running.map(microsToFloatUsd));
  }
  return series;
}

/** Several CSV pages of one query as one file: the header once, then every page's lines. */
export function joinCsvPages(pages: readonly string[]): string {
  if (pages.length === 0) return '';
  const [first, ...rest] = pages;
  return first + rest.map((page) => page.slice(page.indexOf('\r\n') + 2)).join('');
}

/** UTC day of Unix seconds, YYYY-MM-DD. */
export function utcDay(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}
