// The rows a cost page is built from, shared by the JSON page and the CSV rendering (a leaf, so
// neither imports the other for them).
import type { UtcDay } from './utc-day';

/**
 * One read-model row: the day's sum for one group (a line item, a model or a key id), or (no grouping)
 * the day's billed total with group null. A key-grouped row has group null for requests whose key the
 * store does not name.
 */
export interface CostRow {
  day: UtcDay;
  group: string | null;
  amountUsdMicros: bigint;
}

/** A bucket of the page with its rows in micros, before they become the JSON or the CSV body. */
export interface MicrosBucket {
  startTime: number;
  endTime: number;
  rows: CostRow[];
}
