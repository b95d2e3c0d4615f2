// This replica's side of the ledger, as domain rules without I/O: taking tokens of the slice it holds
// (the per-request path: no I/O, no search), closing a slice it stops using, and planning the next
// lease (the conditional append that the rate limiter then performs).
import type { RateLimitConfig } from '../access/access.types';
import {
  freeBudget,
  ledgerOf,
  retryAfterSeconds,
  sliceTiming,
  BUCKETS_PER_SLICE,
  type HeldSlice,
  type LeasePlan,
  type LedgerState,
  type SliceReleasedV1,
  type UsageBucket,
} from './rate-limit-ledger.rules';

/** The bucket of the slice's lifetime that a use at `at` (not before the lease) falls in. */
function bucketOf(slice: HeldSlice, at: number): number {
  return Math.min(BUCKETS_PER_SLICE - 1, Math.floor((at - slice.ledgerSlice.leasedAt) / slice.bucketMs));
}

/** Takes one token of the held slice at `now`; null when there is none to take (no slice, used up or expired). */
export function takeToken(state: LedgerState, organizationId: string, now: number): HeldSlice | null {
  const held = state.held.get(organizationId);
  if (!held || held.used >= held.ledgerSlice.count || now >= held.ledgerSlice.usableUntil) return null;
  const at = Math.max(now, held.ledgerSlice.leasedAt);
  const bucket = bucketOf(held, at);
  held.counts[bucket]++;
  held.lastUsedAt[bucket] = at;
  held.used++;
  return held;
}

/** Gives back a token whose admission could not be recorded, if its slice is still held (else it stays counted: safe). */
export function returnToken(state: LedgerState, organizationId: string, slice: HeldSlice, takenAt: number): void {
  if (state.held.get(organizationId) !== slice) return;
  const bucket = bucketOf(slice, Math.max(takenAt, slice.ledgerSlice.leasedAt));
  if (slice.counts[bucket] > 0) {
    slice.counts[bucket]--;
    slice.used--;
  }
}

/** X-RateLimit-Remaining: what this replica can still admit now (its unused tokens plus the budget nobody holds). */
export function remainingFor(state: LedgerState, organizationId: string, limit: RateLimitConfig, now: number, held: HeldSlice | null): number {
  const unused = held ? held.ledgerSlice.count - held.used : 0;
  return freeBudget(ledgerOf(state, organizationId), limit, now) + unused;
}

/** Stops using the held slice: from now on it occupies only what was used. Returns its release, to be appended. */
export function closeHeld(state: LedgerState, organizationId: string, now: number): SliceReleasedV1 | null {
  const held = state.held.get(organizationId);
  if (!held) return null;
  state.held.delete(organizationId);
  const usage: UsageBucket[] = [];
  held.counts.forEach((count, bucket) => {
    if (count > 0) usage.push([bucket, count, held.lastUsedAt[bucket]]);
  });
  held.ledgerSlice.closedUsage = usage;
  ledgerOf(state, organizationId).freeUntil = -Infinity;
  const { sliceId, replicaId } = held.ledgerSlice;
  return { organizationId, sliceId, replicaId, releasedAt: now, usage };
}

/** Releases of this replica's closed slices that the stream does not have yet. */
export function unreleased(state: LedgerState, organizationId: string, now: number): SliceReleasedV1[] {
  const releases: SliceReleasedV1[] = [];
  for (const slice of ledgerOf(state, organizationId).slices) {
    if (slice.replicaId === state.replicaId && slice.closedUsage !== null && slice.usage === null) {
      releases.push({ organizationId, sliceId: slice.sliceId, replicaId: slice.replicaId, releasedAt: now, usage: slice.closedUsage });
    }
  }
  return releases;
}

/**
 * The next lease: half of the budget nobody holds (at least 1), so one replica alone leases about
 * log2(limit) times per window and a burst on several replicas leaves budget for the others. The
 * held slice is closed first and its release goes into the same append, so the grant may count it
 * as released.
 */
export function planLease(state: LedgerState, organizationId: string, limit: RateLimitConfig, now: number, sliceId: string): LeasePlan {
  closeHeld(state, organizationId, now);
  const ledger = ledgerOf(state, organizationId);
  const leasedAt = Math.max(now, ledger.lastLeasedAt);
  const free = freeBudget(ledger, limit, leasedAt);
  if (free <= 0) return { kind: 'refuse', retryAfterSeconds: retryAfterSeconds(ledger, limit, now) };
  const { ttlMs, bucketMs } = sliceTiming(limit.window_seconds * 1000);
  const count = Math.min(free, Math.max(1, Math.ceil(free / 2)));
  const releases = unreleased(state, organizationId, now);
  const lease = { organizationId, sliceId, replicaId: state.replicaId, count, leasedAt, usableUntil: leasedAt + ttlMs, bucketMs };
  return { kind: 'lease', expectedRevision: ledger.revision, releases, lease };
}

/** After the lease's append succeeded (and was folded): this replica now holds the slice. */
export function holdLeased(state: LedgerState, organizationId: string, sliceId: string, bucketMs: number): void {
  const slice = ledgerOf(state, organizationId).slices.find((candidate) => candidate.sliceId === sliceId);
  if (!slice) return;
  state.held.set(organizationId, { ledgerSlice: slice, bucketMs, used: 0, counts: new Array(BUCKETS_PER_SLICE).fill(0), lastUsedAt: new Array(BUCKETS_PER_SLICE).fill(0) });
}

/** Held slices whose time is up at `now` (all when `everything`) are closed; returns the organizations that have releases to append. */
export function closeExpired(state: LedgerState, now: number, everything = false): string[] {
  for (const [organizationId, held] of state.held) if (everything || now >= held.ledgerSlice.usableUntil) closeHeld(state, organizationId, now);
  const pending: string[] = [];
  for (const organizationId of state.ledgers.keys()) if (unreleased(state, organizationId, now).length > 0) pending.push(organizationId);
  return pending;
}
