// What a key or an organization has spent in a limit window, for the views that show usage against a
// limit (GET /v1/key, GET /v1/keys). Implemented by the budget ledger (src/budgets), which
// also holds and settles at admission; read from its in-memory fold, so answering costs no I/O.
import type { LimitReset } from './spend-limits';

export interface WindowSpend {
  /** Charged cost (CostPriced) in the window, exact micros. */
  settledUsdMicros: bigint;
  /** Holds of requests admitted and not yet settled or released, exact micros. */
  heldUsdMicros: bigint;
  /** Unix ms where the window started and where it resets (null: never). */
  windowStart: number;
  resetsAt: number | null;
}

export abstract class SpendReader {
  abstract spentIn(scope: 'key' | 'organization', id: string, reset: LimitReset, nowMs: number): WindowSpend;
}
