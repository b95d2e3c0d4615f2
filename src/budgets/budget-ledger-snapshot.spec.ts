import { decideHold, evolve, EXPIRED_HOLD_MEMORY_MS, heldIn, initialLedger, scopeKey, settledIn, type BudgetLedgerState } from './budget-ledger';
import { oldestOpenWindowStart, restoreLedger, toLedgerSnapshot } from './budget-ledger-snapshot';
import type { SpendHeldV1 } from './budget.events';
import { limitWindow, type LimitReset } from './spend-limits';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const DAY = 86_400_000;

function charge(state: BudgetLedgerState, requestId: string, cost: number, atMs: number): void {
  evolve(state, { type: 'UsageMeasured', data: { requestId, keyId: 'k1' } });
  evolve(state, { type: 'CostPriced', data: { requestId, organizationId: 'org-a', costUsdMicros: cost, occurredAt: new Date(atMs).toISOString() } });
}

function held(requestId: string, amount: bigint, heldAt: number, expiresAt: number): SpendHeldV1 {
  return { requestId, scope: 'key', scopeId: 'k1', organizationId: 'org-a', keyId: 'k1', amountUsdMicros: String(amount), heldAt, expiresAt };
}

/** Through JSON, as read-models.sqlite keeps it. */
function roundTrip(state: BudgetLedgerState, nowMs = NOW): BudgetLedgerState {
  const restored = initialLedger();
  restoreLedger(restored, JSON.parse(JSON.stringify(toLedgerSnapshot(state, nowMs))));
  return restored;
}

const spent = (state: BudgetLedgerState, key: string, reset: LimitReset) => settledIn(state.scopes.get(key), limitWindow(reset, NOW));

describe('budget ledger snapshot', () => {
  it('keeps every open window\'s settled spend and the lifetime total exact, to the micro', () => {
    const state = initialLedger();
    charge(state, 'old', 7_000_001, Date.UTC(2025, 0, 3));
    charge(state, 'last-month', 500, Date.UTC(2026, 9, 31, 23, 59));
    charge(state, 'month-start', 30, Date.UTC(2026, 10, 1));
    charge(state, 'this-week', 4, Date.UTC(2026, 10, 23));
    charge(state, 'today', 1, NOW);
    const restored = roundTrip(state);
    for (const key of [scopeKey('key', 'k1'), scopeKey('organization', 'org-a')]) {
      for (const reset of ['daily', 'weekly', 'monthly', null] as LimitReset[]) expect(spent(restored, key, reset)).toBe(spent(state, key, reset));
    }
    expect(spent(restored, scopeKey('key', 'k1'), null)).toBe(7_000_536n);
    expect(spent(restored, scopeKey('key', 'k1'), 'monthly')).toBe(35n);
  });

  it('sums the days before the previous month into one lifetime bucket and keeps the previous month by day', () => {
    const state = initialLedger();
    charge(state, 'a', 10, Date.UTC(2026, 8, 30));
    charge(state, 'b', 20, Date.UTC(2026, 7, 1));
    charge(state, 'c', 40, oldestOpenWindowStart(NOW));
    const days = [...roundTrip(state).scopes.get(scopeKey('key', 'k1'))!.settledByDay];
    expect(days).toEqual([[0, 30n], [Date.UTC(2026, 9, 1), 40n]]);
  });

  it('keeps open holds, the stream revision and the expected revision of the next hold; drops holds past their memory', () => {
    const state = initialLedger();
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('open', 300n, NOW, NOW + 60_000) });
    evolve(state, { type: 'SpendHeld', revision: 1, data: held('gone', 200n, NOW - 2 * DAY, NOW - EXPIRED_HOLD_MEMORY_MS) });
    evolve(state, { type: 'SpendHeld', revision: 2, data: held('remembered', 100n, NOW - DAY, NOW - EXPIRED_HOLD_MEMORY_MS + 1) });
    const restored = roundTrip(state);
    const scope = restored.scopes.get(scopeKey('key', 'k1'))!;
    expect([...scope.holds.keys()]).toEqual(['open', 'remembered']);
    expect(heldIn(scope, limitWindow('daily', NOW), NOW)).toBe(300n);
    expect(decideHold(restored, 'key', 'k1', { limitUsdMicros: 300n, reset: 'daily' }, 0n, NOW)).toMatchObject({ fits: true, expectedRevision: 2 });
    expect(decideHold(restored, 'key', 'k1', { limitUsdMicros: 300n, reset: 'daily' }, 1n, NOW).fits).toBe(false);
    // The restored hold is settled by its CostPriced like any other.
    charge(restored, 'open', 120, NOW);
    expect(heldIn(restored.scopes.get(scopeKey('key', 'k1')), limitWindow('daily', NOW), NOW)).toBe(0n);
    expect(spent(restored, scopeKey('key', 'k1'), 'daily')).toBe(120n);
  });

  it('keeps the thresholds of open and lifetime windows, drops those of closed ones', () => {
    const state = initialLedger();
    const crossed = (windowStart: number) => evolve(state, { type: 'BudgetThresholdCrossed', data: { scope: 'key', scopeId: 'k1', windowStart: new Date(windowStart).toISOString(), thresholdPercent: 80 } });
    crossed(0);
    crossed(Date.UTC(2026, 10, 1));
    crossed(Date.UTC(2026, 5, 1));
    expect([...roundTrip(state).scopes.get(scopeKey('key', 'k1'))!.crossed]).toEqual(['0:80', `${Date.UTC(2026, 10, 1)}:80`]);
  });

  it('a snapshot taken between a UsageMeasured and its CostPriced still charges the key', () => {
    const state = initialLedger();
    evolve(state, { type: 'UsageMeasured', data: { requestId: 'split', keyId: 'k1' } });
    const restored = roundTrip(state);
    evolve(restored, { type: 'CostPriced', data: { requestId: 'split', organizationId: 'org-a', costUsdMicros: 9, occurredAt: new Date(NOW).toISOString() } });
    expect(spent(restored, scopeKey('key', 'k1'), 'daily')).toBe(9n);
  });

  it('refuses a snapshot of an unknown version', () => {
    expect(() => restoreLedger(initialLedger(), { ...toLedgerSnapshot(initialLedger(), NOW), version: 2 as 1 })).toThrow('version 2 unknown');
  });
});
