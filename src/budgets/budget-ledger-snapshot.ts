// The budget ledger as a snapshot (read-models.sqlite, like the key registry's), so a restart folds
// only the events after it. Only what an open window can still ask for is kept: settled spend of the
// days before the oldest window that can be open (the previous month's first day, generous for
// monthly, weekly and daily limits) is summed into day 0, which only lifetime windows (start 0)
// count; holds long expired and thresholds of closed windows are dropped. BigInts travel as strings.
import { EXPIRED_HOLD_MEMORY_MS, type BudgetLedgerState, type Hold, type ScopeLedger } from './budget-ledger';

export interface BudgetLedgerSnapshot {
  version: 1;
  scopes: [key: string, scope: ScopeSnapshot][];
  lastUsageRequestId: string | null;
  lastUsageKeyId: string | null;
  /** Requests this replica settled on appending whose CostPriced the fold has not reached yet. */
  settledHere: string[];
}

interface ScopeSnapshot {
  revision: number;
  settledByDay: [day: number, micros: string][];
  holds: [requestId: string, amount: string, day: number, expiresAt: number][];
  crossed: string[];
}

/** First day any limit window open at `nowMs` (or later) can start on. */
export function oldestOpenWindowStart(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
}

export function toLedgerSnapshot(state: BudgetLedgerState, nowMs: number): BudgetLedgerSnapshot {
  const cutoff = oldestOpenWindowStart(nowMs);
  const scopes: BudgetLedgerSnapshot['scopes'] = [];
  for (const [key, scope] of state.scopes) scopes.push([key, scopeSnapshot(scope, cutoff, nowMs)]);
  return { version: 1, scopes, lastUsageRequestId: state.lastUsageRequestId, lastUsageKeyId: state.lastUsageKeyId, settledHere: [...state.settledHere] };
}

function scopeSnapshot(scope: ScopeLedger, cutoff: number, nowMs: number): ScopeSnapshot {
  const settled = new Map<number, bigint>();
  for (const [day, amount] of scope.settledByDay) {
    const kept = day < cutoff ? 0 : day;
    settled.set(kept, (settled.get(kept) ?? 0n) + amount);
  }
  const holds: ScopeSnapshot['holds'] = [];
  for (const [requestId, hold] of scope.holds) {
    if (hold.expiresAt + EXPIRED_HOLD_MEMORY_MS > nowMs) holds.push([requestId, String(hold.amount), hold.day, hold.expiresAt]);
  }
  const crossed = [...scope.crossed].filter((mark) => {
    const windowStart = Number(mark.slice(0, mark.indexOf(':')));
    return windowStart === 0 || windowStart >= cutoff;
  });
  return { revision: scope.revision, settledByDay: [...settled].map(([day, amount]) => [day, String(amount)]), holds, crossed };
}

/** Replaces the fold's state with the snapshot's (holdsOf rebuilt from the holds). */
export function restoreLedger(state: BudgetLedgerState, snapshot: BudgetLedgerSnapshot): void {
  if (snapshot.version !== 1) throw new Error(`budget ledger snapshot version ${String(snapshot.version)} unknown`);
  state.scopes.clear();
  state.holdsOf.clear();
  for (const [key, saved] of snapshot.scopes) {
    const holds = new Map<string, Hold>();
    for (const [requestId, amount, day, expiresAt] of saved.holds) {
      holds.set(requestId, { amount: BigInt(amount), day, expiresAt });
      const keys = state.holdsOf.get(requestId);
      if (keys) keys.push(key);
      else state.holdsOf.set(requestId, [key]);
    }
    const settledByDay = new Map(saved.settledByDay.map(([day, micros]) => [day, BigInt(micros)] as const));
    state.scopes.set(key, { revision: saved.revision, settledByDay, holds, crossed: new Set(saved.crossed) });
  }
  state.lastUsageRequestId = snapshot.lastUsageRequestId;
  state.lastUsageKeyId = snapshot.lastUsageKeyId;
  state.settledHere.clear();
  for (const requestId of snapshot.settledHere) state.settledHere.add(requestId);
}
