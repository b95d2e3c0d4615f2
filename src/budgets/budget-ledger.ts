// The budget ledger, pure (emmett-style): `evolve` folds the recorded events into per-scope spend,
// `decideHold` answers "does a hold of H micros fit under the limit L" (settled + held + H <= L in the
// limit's window); budget-thresholds.ts says which alert levels a charge crosses. Exact BigInt micros.
// evolve mutates the state it is given: it runs once per recorded event and copying maps per event
// would be the whole cost. Spend is kept per UTC day, since every limit window is a run of whole days.
import { limitWindow, type LimitWindow, type SpendLimit } from './spend-limits';
import type { BudgetScope, SpendHeldV1 } from './budget.events';

const DAY_MS = 86_400_000;
/** Expired holds are forgotten this long after expiry; a settlement arriving later is not matched. */
export const EXPIRED_HOLD_MEMORY_MS = DAY_MS;

export interface Hold {
  amount: bigint;
  /** UTC day (ms) of the hold: its window, and the day its settlement is counted in. */
  day: number;
  expiresAt: number;
}

export interface ScopeLedger {
  /** Revision of the scope's budget stream folded so far (-1: none), the expected revision of the next hold. */
  revision: number;
  settledByDay: Map<number, bigint>;
  holds: Map<string, Hold>;
  /** `<windowStart>:<percent>` of the thresholds already recorded. */
  crossed: Set<string>;
}

export interface PendingCharge {
  scopeKey: string;
  amount: bigint;
  day: number;
  /** Thresholds this charge reported (`<windowStart>:<percent>`): unmarked if its append fails. */
  marks: string[];
}

export interface BudgetLedgerState {
  scopes: Map<string, ScopeLedger>;
  /** Scope keys each request holds against, until its settlement or release. */
  holdsOf: Map<string, string[]>;
  /** The last UsageMeasured seen (two fields, no object per event): its CostPriced follows in the same append and names no key. */
  lastUsageRequestId: string | null;
  lastUsageKeyId: string | null;
  /** Charges appended by this replica and not yet folded (so threshold checks see them at once). */
  pending: Map<string, PendingCharge[]>;
  /** Requests whose charge this replica applied on appending it; their CostPriced is then skipped. */
  settledHere: Set<string>;
}

export type LedgerEvent =
  | { type: 'SpendHeld'; revision: number; data: SpendHeldV1 }
  | { type: 'SpendReleased'; data: { requestId: string } }
  | { type: 'UsageMeasured'; data: { requestId: string; keyId: string } }
  | { type: 'CostPriced'; data: { requestId: string; organizationId: string; costUsdMicros: number | null; occurredAt: string } }
  | { type: 'BudgetThresholdCrossed'; data: { scope: BudgetScope; scopeId: string; windowStart: string; thresholdPercent: number } };

export const scopeKey = (scope: BudgetScope, id: string): string => `${scope}:${id}`;
export const dayOf = (ms: number): number => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);

export function initialLedger(): BudgetLedgerState {
  return { scopes: new Map(), holdsOf: new Map(), lastUsageRequestId: null, lastUsageKeyId: null, pending: new Map(), settledHere: new Set() };
}

export function scopeOf(state: BudgetLedgerState, key: string): ScopeLedger {
  let scope = state.scopes.get(key);
  if (!scope) {
    scope = { revision: -1, settledByDay: new Map(), holds: new Map(), crossed: new Set() };
    state.scopes.set(key, scope);
  }
  return scope;
}

export function evolve(state: BudgetLedgerState, event: LedgerEvent): BudgetLedgerState {
  switch (event.type) {
    case 'SpendHeld':
      return applyHold(state, event.revision, event.data);
    case 'SpendReleased':
      dropHolds(state, event.data.requestId);
      return state;
    case 'UsageMeasured':
      state.lastUsageRequestId = event.data.requestId;
      state.lastUsageKeyId = event.data.keyId;
      return state;
    case 'CostPriced':
      if (state.settledHere.delete(event.data.requestId)) return state;
      return applyCharge(state, event.data, state.lastUsageRequestId === event.data.requestId ? state.lastUsageKeyId : null);
    case 'BudgetThresholdCrossed': {
      const windowStart = Date.parse(event.data.windowStart);
      scopeOf(state, scopeKey(event.data.scope, event.data.scopeId)).crossed.add(`${windowStart}:${event.data.thresholdPercent}`);
      return state;
    }
  }
}

function applyHold(state: BudgetLedgerState, revision: number, held: SpendHeldV1): BudgetLedgerState {
  const key = scopeKey(held.scope, held.scopeId);
  const scope = scopeOf(state, key);
  if (revision <= scope.revision) return state;
  scope.revision = revision;
  scope.holds.set(held.requestId, { amount: BigInt(held.amountUsdMicros), day: dayOf(held.heldAt), expiresAt: held.expiresAt });
  const keys = state.holdsOf.get(held.requestId);
  if (keys) keys.push(key);
  else state.holdsOf.set(held.requestId, [key]);
  return state;
}

function dropHolds(state: BudgetLedgerState, requestId: string): void {
  const keys = state.holdsOf.get(requestId);
  if (!keys) return;
  for (const key of keys) state.scopes.get(key)?.holds.delete(requestId);
  state.holdsOf.delete(requestId);
}

/** The charge replaces the request's holds; scopes it held nothing against count it on its own day. */
function applyCharge(state: BudgetLedgerState, charge: ChargeFacts, keyId: string | null): BudgetLedgerState {
  // A CostPriced the cost projection parks as malformed (docs/projections.md) is not counted here either.
  const micros = charge.costUsdMicros ?? 0;
  const chargedDay = utcDayOfIso(charge.occurredAt);
  if (!Number.isInteger(micros) || micros < 0 || Number.isNaN(chargedDay)) return state;
  const cost = BigInt(micros);
  if (keyId !== null) addCharge(scopeOf(state, scopeKey('key', keyId)), charge.requestId, cost, chargedDay);
  addCharge(scopeOf(state, scopeKey('organization', charge.organizationId)), charge.requestId, cost, chargedDay);
  dropHolds(state, charge.requestId);
  state.pending.delete(charge.requestId);
  return state;
}

/** Charges come in time order, so the day of the previous one nearly always answers without parsing. */
let cachedDayPrefix = '';
let cachedDay = NaN;
function utcDayOfIso(iso: string): number {
  if (cachedDayPrefix !== '' && iso.length === 24 && iso.endsWith('Z') && iso.startsWith(cachedDayPrefix)) return cachedDay;
  const day = dayOf(Date.parse(iso));
  if (iso.length === 24 && iso.endsWith('Z') && !Number.isNaN(day)) {
    cachedDayPrefix = iso.slice(0, 10);
    cachedDay = day;
  }
  return day;
}

function addCharge(scope: ScopeLedger, requestId: string, cost: bigint, chargedDay: number): void {
  if (cost === 0n) return;
  const day = scope.holds.get(requestId)?.day ?? chargedDay;
  scope.settledByDay.set(day, (scope.settledByDay.get(day) ?? 0n) + cost);
}

interface ChargeFacts {
  requestId: string;
  organizationId: string;
  costUsdMicros: number | null;
  occurredAt: string;
}

/**
 * This replica appended the request's charge: it replaces the holds at once, not when the subscription
 * brings the CostPriced back (which is then skipped). A request the fold already settled is left alone.
 */
export function settleHere(state: BudgetLedgerState, charge: ChargeFacts, keyId: string): void {
  if (!state.holdsOf.has(charge.requestId)) return;
  applyCharge(state, charge, keyId);
  state.settledHere.add(charge.requestId);
}

/** Settled spend of the scope in the window (lifetime: every day). */
export function settledIn(scope: ScopeLedger | undefined, window: LimitWindow): bigint {
  let total = 0n;
  if (!scope) return total;
  for (const [day, amount] of scope.settledByDay) if (inWindow(day, window)) total += amount;
  return total;
}

/** Unsettled, unexpired holds of the scope in the window; forgets holds long expired. */
export function heldIn(scope: ScopeLedger | undefined, window: LimitWindow, nowMs: number): bigint {
  let total = 0n;
  if (!scope) return total;
  for (const [requestId, hold] of scope.holds) {
    if (hold.expiresAt <= nowMs) {
      if (hold.expiresAt + EXPIRED_HOLD_MEMORY_MS <= nowMs) scope.holds.delete(requestId);
      continue;
    }
    if (inWindow(hold.day, window)) total += hold.amount;
  }
  return total;
}


export type HoldDecision =
  | { fits: true; expectedRevision: number; window: LimitWindow }
  | { fits: false; settled: bigint; held: bigint; window: LimitWindow };

/** settled + held + amount <= limit, in the window holding `nowMs`. */
export function decideHold(state: BudgetLedgerState, scope: BudgetScope, scopeId: string, limit: SpendLimit, amount: bigint, nowMs: number): HoldDecision {
  const ledger = state.scopes.get(scopeKey(scope, scopeId));
  const window = limitWindow(limit.reset, nowMs);
  const settled = settledIn(ledger, window);
  const held = heldIn(ledger, window, nowMs);
  if (settled + held + amount <= limit.limitUsdMicros) return { fits: true, expectedRevision: ledger?.revision ?? -1, window };
  return { fits: false, settled, held, window };
}

export function inWindow(day: number, window: LimitWindow): boolean {
  return day >= window.start && (window.end === null || day < window.end);
}
