import { settleHere, decideHold, evolve, heldIn, initialLedger, scopeKey, settledIn, type BudgetLedgerState, EXPIRED_HOLD_MEMORY_MS } from './budget-ledger';
import { chargeDayOf, forgetPending, notePending, thresholdsCrossed } from './budget-thresholds';
import type { SpendHeldV1 } from './budget.events';
import { limitWindow, type SpendLimit } from './spend-limits';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const DAY = 86_400_000;
const limit = (micros: bigint, reset: SpendLimit['reset'] = 'daily'): SpendLimit => ({ limitUsdMicros: micros, reset });

function held(requestId: string, amount: bigint, overrides: Partial<SpendHeldV1> = {}): SpendHeldV1 {
  return { requestId, scope: 'key', scopeId: 'k1', organizationId: 'org-a', keyId: 'k1', amountUsdMicros: String(amount), heldAt: NOW, expiresAt: NOW + 60_000, ...overrides };
}

function charge(state: BudgetLedgerState, requestId: string, cost: number, occurredAt = new Date(NOW).toISOString()): void {
  evolve(state, { type: 'UsageMeasured', data: { requestId, keyId: 'k1' } });
  evolve(state, { type: 'CostPriced', data: { requestId, organizationId: 'org-a', costUsdMicros: cost, occurredAt } });
}

describe('budget ledger: decide a hold', () => {
  it('fits at exactly the limit (settled + held + H = L) and refuses one micro past it', () => {
    const state = initialLedger();
    charge(state, 'r1', 400);
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('r2', 300n) });
    expect(decideHold(state, 'key', 'k1', limit(1000n), 300n, NOW)).toEqual({ fits: true, expectedRevision: 0, window: limitWindow('daily', NOW) });
    expect(decideHold(state, 'key', 'k1', limit(1000n), 301n, NOW)).toMatchObject({ fits: false, settled: 400n, held: 300n });
    expect(decideHold(state, 'organization', 'org-a', limit(400n), 0n, NOW).fits).toBe(true);
    expect(decideHold(state, 'organization', 'org-a', limit(400n), 1n, NOW).fits).toBe(false);
  });

  it('an unknown scope starts empty at revision -1: a hold of the whole limit fits, one micro more does not', () => {
    const state = initialLedger();
    expect(decideHold(state, 'key', 'new', limit(5n), 5n, NOW)).toMatchObject({ fits: true, expectedRevision: -1 });
    expect(decideHold(state, 'key', 'new', limit(5n), 6n, NOW).fits).toBe(false);
  });

  it('a settlement replaces its hold with the real cost, on the day of the hold', () => {
    const state = initialLedger();
    const yesterday = NOW - DAY;
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('r1', 900n, { heldAt: yesterday, expiresAt: NOW + 1 }) });
    charge(state, 'r1', 250);
    const ledger = state.scopes.get(scopeKey('key', 'k1'));
    expect(settledIn(ledger, limitWindow('daily', yesterday))).toBe(250n);
    expect(settledIn(ledger, limitWindow('daily', NOW))).toBe(0n);
    expect(heldIn(ledger, limitWindow('daily', yesterday), NOW)).toBe(0n);
    expect(settledIn(state.scopes.get(scopeKey('organization', 'org-a')), limitWindow(null, NOW))).toBe(250n);
  });

  it('a release frees the hold and charges nothing', () => {
    const state = initialLedger();
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('r1', 1000n) });
    expect(decideHold(state, 'key', 'k1', limit(1000n), 1n, NOW).fits).toBe(false);
    evolve(state, { type: 'SpendReleased', data: { requestId: 'r1' } });
    expect(decideHold(state, 'key', 'k1', limit(1000n), 1000n, NOW).fits).toBe(true);
  });

  it('a hold stops counting at its expiry (not one ms before) and is forgotten a day later', () => {
    const state = initialLedger();
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('r1', 1000n, { expiresAt: NOW + 10 }) });
    expect(decideHold(state, 'key', 'k1', limit(1000n), 1n, NOW + 9).fits).toBe(false);
    expect(decideHold(state, 'key', 'k1', limit(1000n), 1000n, NOW + 10).fits).toBe(true);
    expect(state.scopes.get('key:k1')!.holds.size).toBe(1);
    heldIn(state.scopes.get('key:k1'), limitWindow('daily', NOW), NOW + 10 + EXPIRED_HOLD_MEMORY_MS);
    expect(state.scopes.get('key:k1')!.holds.size).toBe(0);
  });

  it('a late settlement of an expired hold still counts its cost', () => {
    const state = initialLedger();
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('r1', 1000n, { expiresAt: NOW + 10 }) });
    charge(state, 'r1', 700);
    expect(decideHold(state, 'key', 'k1', limit(1000n), 300n, NOW + 20).fits).toBe(true);
    expect(decideHold(state, 'key', 'k1', limit(1000n), 301n, NOW + 20).fits).toBe(false);
  });

  it('windows: yesterday does not count against today; a monthly limit sums the days of the month, a lifetime one all', () => {
    const state = initialLedger();
    charge(state, 'r1', 600, new Date(NOW - DAY).toISOString());
    expect(decideHold(state, 'key', 'k1', limit(1000n, 'daily'), 1000n, NOW).fits).toBe(true);
    expect(decideHold(state, 'key', 'k1', limit(1000n, 'monthly'), 401n, NOW).fits).toBe(false);
    charge(state, 'r2', 1, new Date(Date.UTC(2025, 0, 1)).toISOString());
    expect(decideHold(state, 'key', 'k1', limit(1000n, null), 399n, NOW).fits).toBe(true);
    expect(decideHold(state, 'key', 'k1', limit(1000n, null), 400n, NOW).fits).toBe(false);
  });

  it('folds a budget stream event once: a revision at or before the folded one is skipped', () => {
    const state = initialLedger();
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('r1', 10n) });
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('r1', 10n) });
    expect(decideHold(state, 'key', 'k1', limit(20n), 10n, NOW)).toMatchObject({ fits: true, expectedRevision: 0 });
    evolve(state, { type: 'SpendHeld', revision: 1, data: held('r2', 10n) });
    expect(decideHold(state, 'key', 'k1', limit(20n), 1n, NOW)).toMatchObject({ fits: false, held: 20n });
  });
});

describe('budget ledger: malformed charges', () => {
  it('skips a CostPriced whose cost is not whole micros or whose time is not a date, as the cost projection parks them', () => {
    const state = initialLedger();
    evolve(state, { type: 'CostPriced', data: { requestId: 'x', organizationId: 'org-a', costUsdMicros: 1.5, occurredAt: new Date(NOW).toISOString() } });
    evolve(state, { type: 'CostPriced', data: { requestId: 'y', organizationId: 'org-a', costUsdMicros: 5, occurredAt: 'yesterday' } });
    charge(state, 'z', 7);
    expect(settledIn(state.scopes.get('organization:org-a'), limitWindow(null, NOW))).toBe(7n);
  });
});

describe('budget ledger: charges this replica appended', () => {
  const facts = (requestId: string, cost: number) => ({ requestId, organizationId: 'org-a', costUsdMicros: cost, occurredAt: new Date(NOW).toISOString() });

  it('settle at once and are not counted again when their CostPriced is folded', () => {
    const state = initialLedger();
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('r1', 1000n) });
    settleHere(state, facts('r1', 300), 'k1');
    expect(decideHold(state, 'key', 'k1', limit(1000n), 700n, NOW).fits).toBe(true);
    expect(decideHold(state, 'key', 'k1', limit(1000n), 701n, NOW).fits).toBe(false);
    charge(state, 'r1', 300);
    expect(decideHold(state, 'key', 'k1', limit(1000n), 700n, NOW).fits).toBe(true);
    expect(decideHold(state, 'key', 'k1', limit(1000n), 701n, NOW).fits).toBe(false);
  });

  it('leave a request the fold already settled alone', () => {
    const state = initialLedger();
    evolve(state, { type: 'SpendHeld', revision: 0, data: held('r1', 1000n) });
    charge(state, 'r1', 300);
    settleHere(state, facts('r1', 300), 'k1');
    expect(decideHold(state, 'key', 'k1', limit(1000n), 701n, NOW).fits).toBe(false);
    expect(decideHold(state, 'key', 'k1', limit(1000n), 700n, NOW).fits).toBe(true);
    expect(state.settledHere.size).toBe(0);
  });
});

describe('budget ledger: thresholds', () => {
  it('crosses 50% at exactly half (not one micro before), 80% and 100%, each once per window', () => {
    const state = initialLedger();
    const key = scopeKey('key', 'k1');
    const l = limit(1000n);
    expect(thresholdsCrossed(state, key, l, NOW, 499n)).toEqual([]);
    charge(state, 'r1', 499);
    expect(thresholdsCrossed(state, key, l, NOW, 1n).map((c) => c.threshold)).toEqual([50]);
    charge(state, 'r2', 1);
    expect(thresholdsCrossed(state, key, l, NOW, 1n)).toEqual([]);
    expect(thresholdsCrossed(state, key, l, NOW, 500n).map((c) => [c.threshold, c.spent])).toEqual([[80, 1000n], [100, 1000n]]);
    expect(thresholdsCrossed(state, key, l, NOW + DAY, 500n).map((c) => c.threshold)).toEqual([50]);
  });

  it('counts this replica\'s charges not yet folded, and a recorded crossing is not reported again', () => {
    const state = initialLedger();
    const key = scopeKey('key', 'k1');
    notePending(state, 'r1', [{ scopeKey: key, amount: 790n, day: chargeDayOf(state, key, 'r1', NOW), marks: [] }]);
    evolve(state, { type: 'BudgetThresholdCrossed', data: { scope: 'key', scopeId: 'k1', windowStart: new Date(limitWindow('daily', NOW).start).toISOString(), thresholdPercent: 50 } });
    expect(thresholdsCrossed(state, key, limit(1000n), NOW, 10n).map((c) => c.threshold)).toEqual([80]);
    charge(state, 'r1', 790);
    expect(state.pending.size).toBe(0);
  });

  it('a charge whose append failed counts for nothing and its crossings are reported again by the next charge', () => {
    const state = initialLedger();
    const key = scopeKey('key', 'k1');
    const crossings = thresholdsCrossed(state, key, limit(1000n), NOW, 600n);
    expect(crossings.map((c) => c.threshold)).toEqual([50]);
    notePending(state, 'r1', [{ scopeKey: key, amount: 600n, day: NOW, marks: crossings.map((c) => c.mark) }]);
    expect(thresholdsCrossed(state, key, limit(1000n), NOW, 1n)).toEqual([]);
    forgetPending(state, 'r1');
    expect(thresholdsCrossed(state, key, limit(1000n), NOW, 499n)).toEqual([]);
    expect(thresholdsCrossed(state, key, limit(1000n), NOW, 500n).map((c) => c.threshold)).toEqual([50]);
  });

  it('a zero cost or a zero limit crosses nothing', () => {
    const state = initialLedger();
    expect(thresholdsCrossed(state, 'key:k1', limit(0n), NOW, 5n)).toEqual([]);
    expect(thresholdsCrossed(state, 'key:k1', limit(10n), NOW, 0n)).toEqual([]);
  });
});
