// Per-organization sliding-log rate limiting, as domain rules without I/O. An admission counts for
// `window_seconds` after its admittedAt; a log never keeps more entries than the organization's limit,
// because only the newest `requests` admissions can decide whether the next one fits. A log is just
// the admission times (numbers): equal times are interchangeable, and each RequestAdmitted event is
// delivered once per process, so only this replica's own admissions need their request ids, until
// their event comes back through the subscription.
import type { RateLimitConfig } from '../../access/access.types';
import type { RequestAdmittedV1 } from '../../billing/billing.events';

interface OrganizationLog {
  /** admittedAt (Unix ms) of every counted admission, ascending, from index `head` on. */
  times: number[];
  head: number;
  /** This replica's admissions (request id -> admittedAt) whose event has not been delivered yet. */
  pending: Map<string, number>;
}

export interface RateLimitState {
  /** The configured limit of an organization; bounds its log. */
  readonly limitFor: (organizationId: string) => RateLimitConfig;
  readonly logs: Map<string, OrganizationLog>;
}

export interface AdmissionDecision {
  admitted: boolean;
  /** Requests left in the window after this decision (X-RateLimit-Remaining). */
  remaining: number;
  /** Whole seconds until a request would be admitted (>= 1); null when admitted. */
  retryAfterSeconds: number | null;
}

/** Delivered admission times per organization, ascending: what a restart needs besides the store. */
export type RateLimitSnapshot = Record<string, number[]>;

export function createRateLimitState(limitFor: (organizationId: string) => RateLimitConfig): RateLimitState {
  return { limitFor, logs: new Map() };
}

export function decideAdmission(state: RateLimitState, organizationId: string, limit: RateLimitConfig, nowMs: number): AdmissionDecision {
  const windowMs = limit.window_seconds * 1000;
  const log = state.logs.get(organizationId);
  const inWindow = log ? log.times.length - firstAfter(log, nowMs - windowMs) : 0;
  if (inWindow < limit.requests) {
    return { admitted: true, remaining: limit.requests - inWindow - 1, retryAfterSeconds: null };
  }
  // The request fits once enough of the oldest admissions have left the window.
  const freedAt = limit.requests > 0 ? log!.times[log!.times.length - limit.requests] + windowMs : nowMs + windowMs;
  return { admitted: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - nowMs) / 1000)) };
}

/** Folds a delivered admission in; this replica's own admission is already counted and only stops being pending. */
export function evolve(state: RateLimitState, event: Pick<RequestAdmittedV1, 'requestId' | 'organizationId' | 'admittedAt'>): RateLimitState {
  const log = logOf(state, event.organizationId);
  if (!log.pending.delete(event.requestId)) insert(state, event.organizationId, log, event.admittedAt);
  return state;
}

/** Decides and, when admitted, counts the admission at once so concurrent local requests see it. */
export function admitLocally(state: RateLimitState, organizationId: string, limit: RateLimitConfig, requestId: string, nowMs: number): AdmissionDecision {
  const decision = decideAdmission(state, organizationId, limit, nowMs);
  if (decision.admitted) {
    const log = logOf(state, organizationId);
    insert(state, organizationId, log, nowMs);
    log.pending.set(requestId, nowMs);
  }
  return decision;
}

/** Takes back a local admission whose RequestAdmitted event could not be recorded. */
export function withdraw(state: RateLimitState, organizationId: string, requestId: string): RateLimitState {
  const log = state.logs.get(organizationId);
  const admittedAt = log?.pending.get(requestId);
  if (!log || admittedAt === undefined) return state;
  log.pending.delete(requestId);
  const index = log.times.lastIndexOf(admittedAt);
  if (index >= log.head) log.times.splice(index, 1);
  return state;
}

/** Forgets admissions that no longer count at `nowMs` (and organizations left with none). */
export function pruneExpired(state: RateLimitState, nowMs: number): RateLimitState {
  for (const [organizationId, log] of state.logs) {
    const cutoff = nowMs - state.limitFor(organizationId).window_seconds * 1000;
    log.head = firstAfter(log, cutoff);
    compact(log);
    for (const [requestId, admittedAt] of log.pending) if (admittedAt <= cutoff) log.pending.delete(requestId);
    if (log.times.length === 0 && log.pending.size === 0) state.logs.delete(organizationId);
  }
  return state;
}

/** Delivered admissions only: pending ones come back from the store, after the snapshot's position. */
export function toSnapshot(state: RateLimitState): RateLimitSnapshot {
  const snapshot: RateLimitSnapshot = {};
  for (const [organizationId, log] of state.logs) {
    const times = deliveredTimes(log);
    if (times.length > 0) snapshot[organizationId] = times;
  }
  return snapshot;
}

/** Undelivered admissions are the newest few, so only the tail from the oldest of them is filtered. */
function deliveredTimes(log: OrganizationLog): number[] {
  if (log.pending.size === 0) return log.times.slice(log.head);
  const undelivered = new Map<number, number>();
  let oldest = Number.POSITIVE_INFINITY;
  for (const time of log.pending.values()) {
    undelivered.set(time, (undelivered.get(time) ?? 0) + 1);
    oldest = Math.min(oldest, time);
  }
  const tailStart = firstAfter(log, oldest - 1);
  const tail = log.times.slice(tailStart).filter((time) => {
    const count = undelivered.get(time) ?? 0;
    if (count > 0) undelivered.set(time, count - 1);
    return count === 0;
  });
  return log.times.slice(log.head, tailStart).concat(tail);
}

/** Snapshots written before admission logs became plain times held `[requestId, admittedAt]` pairs. */
export type StoredRateLimitSnapshot = Record<string, (number | [string, number])[]>;

export function fromSnapshot(limitFor: (organizationId: string) => RateLimitConfig, snapshot: StoredRateLimitSnapshot): RateLimitState {
  const state = createRateLimitState(limitFor);
  for (const [organizationId, entries] of Object.entries(snapshot)) {
    const log = logOf(state, organizationId);
    for (const entry of entries) insert(state, organizationId, log, Array.isArray(entry) ? entry[1] : entry);
  }
  return state;
}

function logOf(state: RateLimitState, organizationId: string): OrganizationLog {
  let log = state.logs.get(organizationId);
  if (!log) state.logs.set(organizationId, (log = { times: [], head: 0, pending: new Map() }));
  return log;
}

/** Adds one admission time in order (mostly at the end), then drops what the limit and window no longer need. */
function insert(state: RateLimitState, organizationId: string, log: OrganizationLog, admittedAt: number): void {
  let index = log.times.length;
  while (index > log.head && log.times[index - 1] > admittedAt) index--;
  if (index === log.times.length) log.times.push(admittedAt);
  else log.times.splice(index, 0, admittedAt);
  const limit = state.limitFor(organizationId);
  const newest = log.times[log.times.length - 1];
  log.head = Math.max(log.head, log.times.length - limit.requests, firstAfter(log, newest - limit.window_seconds * 1000));
  compact(log);
}

/** Index of the first entry admitted after `cutoffMs` (binary search: the log can hold a large limit's worth). */
function firstAfter(log: OrganizationLog, cutoffMs: number): number {
  let low = log.head;
  let high = log.times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (log.times[middle] > cutoffMs) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Entries before `head` are dropped in bulk once they are half the array, so dropping one costs O(1) on average. */
function compact(log: OrganizationLog): void {
  if (log.head > 0 && log.head * 2 >= log.times.length) {
    log.times.splice(0, log.head);
    log.head = 0;
  }
}
