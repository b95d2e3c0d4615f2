// Per-organization sliding-log rate limiting, as domain rules without I/O. An admission counts for
// `window_seconds` after its admittedAt; a log never keeps more entries than the organization's limit,
// because only the newest `requests` admissions can decide whether the next one fits.
import type { RateLimitConfig } from '../../access/access.types';
import type { RequestAdmittedV1 } from '../../billing/billing.events';

export interface Admission {
  requestId: string;
  /** Unix milliseconds. */
  admittedAt: number;
}

interface OrganizationLog {
  /** Ascending by admittedAt. */
  entries: Admission[];
  requestIds: Set<string>;
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

export function createRateLimitState(limitFor: (organizationId: string) => RateLimitConfig): RateLimitState {
  return { limitFor, logs: new Map() };
}

export function decideAdmission(state: RateLimitState, organizationId: string, limit: RateLimitConfig, nowMs: number): AdmissionDecision {
  const windowMs = limit.window_seconds * 1000;
  const entries = state.logs.get(organizationId)?.entries ?? [];
  const inWindow = entries.length - firstAfter(entries, nowMs - windowMs);
  if (inWindow < limit.requests) {
    return { admitted: true, remaining: limit.requests - inWindow - 1, retryAfterSeconds: null };
  }
  // The request fits once enough of the oldest admissions have left the window.
  const freedAt = limit.requests > 0 ? entries[entries.length - limit.requests].admittedAt + windowMs : nowMs + windowMs;
  return { admitted: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - nowMs) / 1000)) };
}

/** Records an admission (from this replica or another); a request id already in the log is ignored. Updates `state` in place. */
export function evolve(state: RateLimitState, event: Pick<RequestAdmittedV1, 'requestId' | 'organizationId' | 'admittedAt'>): RateLimitState {
  const log = logOf(state, event.organizationId);
  if (log.requestIds.has(event.requestId)) return state;
  insertSorted(log.entries, { requestId: event.requestId, admittedAt: event.admittedAt });
  log.requestIds.add(event.requestId);
  const limit = state.limitFor(event.organizationId);
  const newest = log.entries[log.entries.length - 1].admittedAt;
  dropWhile(log, (entry, index) => log.entries.length - index > limit.requests || entry.admittedAt <= newest - limit.window_seconds * 1000);
  return state;
}

/** Decides and, when admitted, records the admission at once so concurrent local requests see it. */
export function admitLocally(state: RateLimitState, organizationId: string, limit: RateLimitConfig, requestId: string, nowMs: number): AdmissionDecision {
  const decision = decideAdmission(state, organizationId, limit, nowMs);
  if (decision.admitted) evolve(state, { organizationId, requestId, admittedAt: nowMs });
  return decision;
}

/** Takes back a local admission whose RequestAdmitted event could not be recorded. */
export function withdraw(state: RateLimitState, organizationId: string, requestId: string): RateLimitState {
  const log = state.logs.get(organizationId);
  if (!log?.requestIds.delete(requestId)) return state;
  log.entries.splice(log.entries.findIndex((entry) => entry.requestId === requestId), 1);
  return state;
}

/** Forgets admissions that no longer count at `nowMs` (and organizations left with none). */
export function pruneExpired(state: RateLimitState, nowMs: number): RateLimitState {
  for (const [organizationId, log] of state.logs) {
    const windowMs = state.limitFor(organizationId).window_seconds * 1000;
    dropWhile(log, (entry) => entry.admittedAt <= nowMs - windowMs);
    if (log.entries.length === 0) state.logs.delete(organizationId);
  }
  return state;
}

export type RateLimitSnapshot = Record<string, [requestId: string, admittedAt: number][]>;

export function toSnapshot(state: RateLimitState): RateLimitSnapshot {
  const snapshot: RateLimitSnapshot = {};
  for (const [organizationId, log] of state.logs) snapshot[organizationId] = log.entries.map((entry) => [entry.requestId, entry.admittedAt]);
  return snapshot;
}

export function fromSnapshot(limitFor: (organizationId: string) => RateLimitConfig, snapshot: RateLimitSnapshot): RateLimitState {
  const state = createRateLimitState(limitFor);
  for (const [organizationId, entries] of Object.entries(snapshot)) {
    for (const [requestId, admittedAt] of entries) evolve(state, { organizationId, requestId, admittedAt });
  }
  return state;
}

function logOf(state: RateLimitState, organizationId: string): OrganizationLog {
  let log = state.logs.get(organizationId);
  if (!log) state.logs.set(organizationId, (log = { entries: [], requestIds: new Set() }));
  return log;
}

/** Index of the first entry admitted after `cutoffMs` (binary search: the log can hold a large limit's worth). */
function firstAfter(entries: Admission[], cutoffMs: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle].admittedAt > cutoffMs) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Admissions mostly arrive in order, so the insertion point is searched from the end. */
function insertSorted(entries: Admission[], admission: Admission): void {
  let index = entries.length;
  while (index > 0 && entries[index - 1].admittedAt > admission.admittedAt) index--;
  entries.splice(index, 0, admission);
}

/** Removes the leading entries matching `expired` (entries are ascending, so expiry is a prefix). */
function dropWhile(log: OrganizationLog, expired: (entry: Admission, index: number) => boolean): void {
  let count = 0;
  while (count < log.entries.length && expired(log.entries[count], count)) count++;
  for (const entry of log.entries.splice(0, count)) log.requestIds.delete(entry.requestId);
}
