// A key's life as a fold of its stream (evolve) and what a new request with the key gets (decide).
// Pure: the hook reads the stream, asks here, and appends what is decided with the stream's revision as
// the expected one, so of two replicas deciding at once only one append succeeds.
import type { RecordedEvent } from '../event-store/event-store.port';
import type { IdempotencyKeyClaimedV1, IdempotencyKeyReleasedV1, IdempotentResponseRecordedV1 } from './idempotency.events';

export interface KeyState {
  /** Revision of the stream's last event; null when the stream does not exist. */
  revision: number | null;
  claim: IdempotencyKeyClaimedV1 | null;
  outcome: IdempotentResponseRecordedV1 | null;
  /** Every request that claimed the key in its current life (a dead claimant may have been charged). */
  claimants: string[];
  /** The request that carries the key's one charge, once known. */
  chargedRequestId: string | null;
  costUsdMicros: number | null;
}

export const EMPTY_KEY: KeyState = { revision: null, claim: null, outcome: null, claimants: [], chargedRequestId: null, costUsdMicros: null };

export function evolve(state: KeyState, event: Pick<RecordedEvent, 'type' | 'data' | 'revision'>): KeyState {
  const next = { ...state, revision: event.revision };
  switch (event.type) {
    case 'IdempotencyKeyClaimed': {
      const claim = event.data as IdempotencyKeyClaimedV1;
      // The running claimant renewing its lease.
      if (claim.requestId === state.claim?.requestId) return { ...next, claim };
      if (claim.fresh) return { ...next, claim, outcome: null, claimants: [claim.requestId], chargedRequestId: claim.chargedRequestId, costUsdMicros: claim.costUsdMicros };
      const charge = state.chargedRequestId !== null ? state : claim;
      return { ...next, claim, outcome: null, claimants: [...state.claimants, claim.requestId], chargedRequestId: charge.chargedRequestId, costUsdMicros: charge.costUsdMicros };
    }
    case 'IdempotentResponseRecorded': {
      const outcome = event.data as IdempotentResponseRecordedV1;
      return { ...next, outcome, chargedRequestId: outcome.chargedRequestId ?? state.chargedRequestId, costUsdMicros: outcome.costUsdMicros ?? state.costUsdMicros };
    }
    case 'IdempotencyKeyReleased':
      if ((event.data as IdempotencyKeyReleasedV1).requestId !== state.claim?.requestId) return next;
      return { ...next, claim: null, outcome: null };
    default:
      return next;
  }
}

export function foldKey(events: readonly Pick<RecordedEvent, 'type' | 'data' | 'revision'>[]): KeyState {
  return events.reduce(evolve, EMPTY_KEY);
}

export type KeyDecision =
  /**
   * Run the request; append its claim at `expectedRevision`. `fresh`: the key starts a new life (first
   * use, or past the retention). `previousClaimants`: requests of this life that may have been charged.
   */
  | { kind: 'claim'; expectedRevision: number | 'no_stream'; fresh: boolean; previousClaimants: string[] }
  | { kind: 'in_use'; retryAfterSeconds: number; requestId: string }
  | { kind: 'replay'; outcome: IdempotentResponseRecordedV1 }
  | { kind: 'not_kept'; outcome: IdempotentResponseRecordedV1 }
  | { kind: 'reused' };

export interface DecideInput {
  fingerprint: string;
  now: Date;
  /** How long a recorded answer is kept and the key stays bound to it. */
  retentionMs: number;
}

export function decide(state: KeyState, { fingerprint, now, retentionMs }: DecideInput): KeyDecision {
  if (state.revision === null) return { kind: 'claim', expectedRevision: 'no_stream', fresh: true, previousClaimants: [] };
  const claim = state.claim;
  // Released (nothing charged, "try again") or forgotten past the retention: the key is free again. An
  // outcome without a claim is a life whose claim the store already expired ($maxAge): forgotten too.
  if (claim === null || Date.parse(claim.claimedAt) + retentionMs <= now.getTime()) {
    const fresh = claim !== null || state.outcome !== null;
    return { kind: 'claim', expectedRevision: state.revision, fresh, previousClaimants: fresh ? [] : state.claimants };
  }
  if (claim.fingerprint !== fingerprint) return { kind: 'reused' };
  if (state.outcome !== null) return state.outcome.kept ? { kind: 'replay', outcome: state.outcome } : { kind: 'not_kept', outcome: state.outcome };
  const leaseLeftMs = Date.parse(claim.leaseExpiresAt) - now.getTime();
  if (leaseLeftMs > 0) return { kind: 'in_use', retryAfterSeconds: Math.max(1, Math.ceil(Math.min(leaseLeftMs, 5_000) / 1000)), requestId: claim.requestId };
  // The claimant died before recording an outcome: run again, but its charge (if any) stands.
  return { kind: 'claim', expectedRevision: state.revision, fresh: false, previousClaimants: state.claimants };
}

