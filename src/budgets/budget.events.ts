// Budget events (issue 29; docs/events.md). A hold is appended to the budget stream of its scope
// (conditionally, at the revision the decision saw); its settlement is the request's own CostPriced
// (same request id), its release a SpendReleased in the request's stream. Amounts are integer micros
// as decimal text: exact, and JSON has no BigInt.
import type { LimitReset } from './spend-limits';

export type BudgetScope = 'key' | 'organization';
export const SPEND_HELD = 'SpendHeld';
export const SPEND_RELEASED = 'SpendReleased';
export const BUDGET_THRESHOLD_CROSSED = 'BudgetThresholdCrossed';
export const BUDGET_THRESHOLDS = [50, 80, 100] as const;
export type BudgetThreshold = (typeof BUDGET_THRESHOLDS)[number];

export interface SpendHeldV1 {
  requestId: string;
  scope: BudgetScope;
  /** The key id or the organization id the hold counts against. */
  scopeId: string;
  organizationId: string;
  keyId: string;
  amountUsdMicros: string;
  /** Unix ms; the hold counts in the limit window holding this instant. */
  heldAt: number;
  /** Unix ms after which an unsettled hold no longer counts (the replica holding it died). */
  expiresAt: number;
}

export interface SpendReleasedV1 {
  requestId: string;
  organizationId: string;
  keyId: string;
  /** Why nothing was charged, e.g. `upstream_error` or an error code. */
  reason: string;
  releasedAt: number;
}

export interface BudgetThresholdCrossedV1 {
  organizationId: string;
  scope: BudgetScope;
  scopeId: string;
  thresholdPercent: BudgetThreshold;
  limitUsdMicros: string;
  reset: LimitReset;
  /** Settled spend in the window once the crossing request was charged, micros. */
  spentUsdMicros: string;
  windowStart: string;
  resetsAt: string | null;
  /** The request whose charge crossed the threshold. */
  requestId: string;
  occurredAt: string;
}

export function budgetStreamId(scope: BudgetScope, scopeId: string): string {
  return `budget-${scope === 'key' ? 'key' : 'org'}-${scopeId}`;
}
