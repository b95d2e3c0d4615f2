// Which alert levels (50, 80, 100% of a limit) a charge takes a scope's settled spend to, once per
// window: pure, on the budget ledger's state (budget-ledger.ts).
import { limitWindow, type LimitWindow, type SpendLimit } from './spend-limits';
import { BUDGET_THRESHOLDS, type BudgetThreshold } from './budget.events';
import { dayOf, inWindow, scopeOf, settledIn, type BudgetLedgerState, type PendingCharge } from './budget-ledger';

export interface Crossing {
  threshold: BudgetThreshold;
  window: LimitWindow;
  spent: bigint;
  /** Its key in the scope's recorded crossings. */
  mark: string;
}

/**
 * The thresholds a charge of `cost` (held on `day`) takes the scope's settled spend to or past and that
 * are not yet recorded; charges of this replica not folded yet count too. Marks them, so concurrent
 * charges here do not report them again (the event id makes a second report elsewhere a no-op).
 */
export function thresholdsCrossed(state: BudgetLedgerState, key: string, limit: SpendLimit, day: number, cost: bigint): Crossing[] {
  if (cost <= 0n || limit.limitUsdMicros <= 0n) return [];
  const scope = scopeOf(state, key);
  const window = limitWindow(limit.reset, day);
  let spent = settledIn(scope, window) + cost;
  for (const entries of state.pending.values()) for (const entry of entries) if (entry.scopeKey === key && inWindow(entry.day, window)) spent += entry.amount;
  const crossings: Crossing[] = [];
  for (const threshold of BUDGET_THRESHOLDS) {
    const mark = `${window.start}:${threshold}`;
    if (spent * 100n < BigInt(threshold) * limit.limitUsdMicros || scope.crossed.has(mark)) continue;
    scope.crossed.add(mark);
    crossings.push({ threshold, window, spent, mark });
  }
  return crossings;
}

/** Records a charge appended here before the fold sees it (undone by its CostPriced, or by `forgetPending`). */
export function notePending(state: BudgetLedgerState, requestId: string, entries: PendingCharge[]): void {
  state.pending.set(requestId, entries);
}

/** The charge's append failed: it counts for nothing, and the thresholds it reported were not recorded. */
export function forgetPending(state: BudgetLedgerState, requestId: string): void {
  for (const entry of state.pending.get(requestId) ?? []) {
    const crossed = state.scopes.get(entry.scopeKey)?.crossed;
    for (const mark of entry.marks) crossed?.delete(mark);
  }
  state.pending.delete(requestId);
}

/** The day a request's charge counts on in the scope: its hold's, else the charge's own. */
export function chargeDayOf(state: BudgetLedgerState, key: string, requestId: string, nowMs: number): number {
  return state.scopes.get(key)?.holds.get(requestId)?.day ?? dayOf(nowMs);
}
