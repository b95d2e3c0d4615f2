// Per-organization budget ledger over the lease stream `ratelimit-<org>`, as domain rules without I/O.
// A replica admits only with a token of a slice it leased; slices are leased by a conditional append
// (expected revision = the revision folded here), so every grant is decided on the whole stream before
// it. A slice occupies its full count until it is released (or, if its holder dies, until its
// `usableUntil` plus the window); a released slice occupies only what was used, bucket by bucket, until
// the bucket's last use plus the window. A grant never takes the occupancy past the limit, so the
// admissions of any window never do either (docs/rate-limits.md states the proof).
import type { RateLimitConfig } from '../access/access.types';

export const SLICE_LEASED = 'RateLimitSliceLeased';
export const SLICE_RELEASED = 'RateLimitSliceReleased';
/** Buckets per slice: how finely a released slice reports when its tokens were used. */
export const BUCKETS_PER_SLICE = 16;

export interface SliceLeasedV1 {
  organizationId: string;
  sliceId: string;
  replicaId: string;
  count: number;
  /** Unix ms; never before the previous lease of the stream, so grants are ordered in time too. */
  leasedAt: number;
  /** The holder admits with the slice only before this time (Unix ms). */
  usableUntil: number;
  bucketMs: number;
}

/** [bucket index, tokens used in it, last use in it (Unix ms)]. */
export type UsageBucket = [number, number, number];

export interface SliceReleasedV1 {
  organizationId: string;
  sliceId: string;
  replicaId: string;
  releasedAt: number;
  /** Buckets with at least one use; the slice's other tokens go back to the budget. */
  usage: UsageBucket[];
}

export interface LedgerSlice {
  sliceId: string;
  replicaId: string;
  count: number;
  leasedAt: number;
  usableUntil: number;
  /** As released in the stream; null while open. */
  usage: UsageBucket[] | null;
  /** Set by this replica when it stops using its own slice, before the release reaches the stream. */
  closedUsage: UsageBucket[] | null;
}

export interface OrganizationLedger {
  /** Last revision of the lease stream folded in (-1: none). */
  revision: number;
  lastLeasedAt: number;
  slices: LedgerSlice[];
  /** Free budget as computed at `freeAt`, valid until the next time an occupancy ends (the per-request header needs it). */
  free: number;
  freeAt: number;
  freeUntil: number;
}

/** This replica's open slice of an organization; only this replica takes its tokens. */
export interface HeldSlice {
  readonly ledgerSlice: LedgerSlice;
  readonly bucketMs: number;
  used: number;
  readonly counts: number[];
  readonly lastUsedAt: number[];
}

export interface LedgerState {
  readonly replicaId: string;
  readonly ledgers: Map<string, OrganizationLedger>;
  readonly held: Map<string, HeldSlice>;
}

export type LeasePlan =
  | { kind: 'refuse'; retryAfterSeconds: number }
  | { kind: 'lease'; expectedRevision: number; releases: SliceReleasedV1[]; lease: SliceLeasedV1 };

export interface LeaseEvent {
  type: string;
  revision: number;
  data: unknown;
}

export function createLedgerState(replicaId: string): LedgerState {
  return { replicaId, ledgers: new Map(), held: new Map() };
}

export const LEASE_STREAM_PREFIX = 'ratelimit-';

export function leaseStreamId(organizationId: string): string {
  return LEASE_STREAM_PREFIX + organizationId;
}

/** A slice is usable for a tenth of the window (at least 1 s, at most the window): short enough that idle tokens return soon. */
export function sliceTiming(windowMs: number): { ttlMs: number; bucketMs: number } {
  const ttlMs = Math.min(windowMs, Math.max(1000, Math.round(windowMs / 10)));
  return { ttlMs, bucketMs: Math.max(1, Math.ceil(ttlMs / BUCKETS_PER_SLICE)) };
}

export function ledgerOf(state: LedgerState, organizationId: string): OrganizationLedger {
  let ledger = state.ledgers.get(organizationId);
  if (!ledger) state.ledgers.set(organizationId, (ledger = { revision: -1, lastLeasedAt: 0, slices: [], free: 0, freeAt: Infinity, freeUntil: -Infinity }));
  return ledger;
}

/**
 * Folds one event of an organization's lease stream; events at or below the folded revision were seen
 * already. A malformed event (not written by this gateway) still advances the revision, so conditional
 * appends keep working, but changes nothing: the caller logs it instead of stalling on it.
 */
export function evolveLedger(state: LedgerState, organizationId: string, event: LeaseEvent): 'folded' | 'seen' | 'malformed' {
  const ledger = ledgerOf(state, organizationId);
  if (event.revision <= ledger.revision) return 'seen';
  ledger.revision = event.revision;
  ledger.freeUntil = -Infinity;
  if (event.type === SLICE_LEASED && isLeased(event.data)) {
    ledger.lastLeasedAt = Math.max(ledger.lastLeasedAt, event.data.leasedAt);
    ledger.slices.push({ ...pickSlice(event.data), usage: null, closedUsage: null });
    return 'folded';
  }
  if (event.type === SLICE_RELEASED && isReleased(event.data)) {
    const { sliceId, usage } = event.data;
    const slice = ledger.slices.find((candidate) => candidate.sliceId === sliceId);
    if (slice) slice.usage = usage;
    return 'folded';
  }
  return 'malformed';
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function isLeased(data: unknown): data is SliceLeasedV1 {
  const leased = data as Partial<SliceLeasedV1> | null;
  return (
    typeof leased?.sliceId === 'string' && typeof leased.replicaId === 'string' && Number.isSafeInteger(leased.count) && leased.count! >= 0 &&
    isTime(leased.leasedAt) && isTime(leased.usableUntil)
  );
}

function isReleased(data: unknown): data is SliceReleasedV1 {
  const released = data as Partial<SliceReleasedV1> | null;
  return (
    typeof released?.sliceId === 'string' && Array.isArray(released.usage) &&
    released.usage.every((bucket) => Array.isArray(bucket) && bucket.length === 3 && bucket.every(isTime) && bucket[1] >= 0)
  );
}

function pickSlice({ sliceId, replicaId, count, leasedAt, usableUntil }: SliceLeasedV1) {
  return { sliceId, replicaId, count, leasedAt, usableUntil };
}

/** Tokens of a slice still counted at `at`. */
export function occupancyAt(slice: LedgerSlice, at: number, windowMs: number): number {
  const usage = slice.usage ?? slice.closedUsage;
  if (usage === null) return at < slice.usableUntil + windowMs ? slice.count : 0;
  let occupied = 0;
  for (const [, count, lastUsedAt] of usage) if (lastUsedAt + windowMs > at) occupied += count;
  return occupied;
}

/** The earliest time after `at` at which the slice's occupancy may fall (an open foreign slice: when its holder must release it). */
function nextRelief(slice: LedgerSlice, at: number, windowMs: number): number {
  const usage = slice.usage ?? slice.closedUsage;
  if (usage === null) return slice.usableUntil > at ? slice.usableUntil : slice.usableUntil + windowMs;
  let next = Infinity;
  for (const [, count, lastUsedAt] of usage) if (count > 0 && lastUsedAt + windowMs > at) next = Math.min(next, lastUsedAt + windowMs);
  return next;
}

/** Budget nobody holds at `at`; also forgets slices that no longer occupy anything. */
export function freeBudget(ledger: OrganizationLedger, limit: RateLimitConfig, at: number): number {
  // Occupancy only falls as time passes, so the cache holds between its computation and the next relief.
  if (at >= ledger.freeAt && at < ledger.freeUntil) return ledger.free;
  const windowMs = limit.window_seconds * 1000;
  let occupied = 0;
  let until = Infinity;
  ledger.slices = ledger.slices.filter((slice) => {
    const occupancy = occupancyAt(slice, at, windowMs);
    const stillNeeded = occupancy > 0 || (slice.closedUsage !== null && slice.usage === null && at < slice.usableUntil + windowMs);
    if (occupancy > 0) until = Math.min(until, nextRelief(slice, at, windowMs));
    occupied += occupancy;
    return stillNeeded;
  });
  ledger.free = Math.max(0, limit.requests - occupied);
  ledger.freeAt = at;
  ledger.freeUntil = until;
  return ledger.free;
}

/** Whole seconds (>= 1) until some occupancy ends. */
export function retryAfterSeconds(ledger: OrganizationLedger, limit: RateLimitConfig, at: number): number {
  const windowMs = limit.window_seconds * 1000;
  let next = at + windowMs;
  for (const slice of ledger.slices) if (occupancyAt(slice, at, windowMs) > 0) next = Math.min(next, nextRelief(slice, at, windowMs));
  return Math.max(1, Math.ceil((next - at) / 1000));
}
