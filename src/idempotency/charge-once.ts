// A key carries at most one charge for its whole life. A request running under a key is registered
// here by the idempotency hook; the billing service asks before it appends: when a dead earlier
// claimant was already charged, this request is answered but not charged again. The registry also
// learns this request's own charge, which its recorded outcome then names.
// Process-wide on purpose: request ids are unique (UUIDv7), and billing knows requests only by id.

export interface KeyCharge {
  requestId: string;
  costUsdMicros: number | null;
}

interface KeyRun {
  /** The earlier request whose charge this one's answer is covered by. */
  coveredBy: KeyCharge | null;
  /** This request's own charge, once appended. */
  charged: KeyCharge | null;
}

const runs = new Map<string, KeyRun>();

export function startKeyRun(requestId: string, coveredBy: KeyCharge | null): void {
  runs.set(requestId, { coveredBy, charged: null });
}

/** The charge that the key carries after this run so far (the earlier one, this one, or none). */
export function keyChargeOf(requestId: string): KeyCharge | null {
  const run = runs.get(requestId);
  return run?.coveredBy ?? run?.charged ?? null;
}

/** Forgets the run: called once its response is over and an interrupted stream had time to bill. */
export function endKeyRun(requestId: string): void {
  runs.delete(requestId);
}

/**
 * Runs to forget, in the order they are due, swept by one timer: a timer per keyed request held about 0.3 KB
 * for a lease (60 s) each, tens of MiB at a few thousand keyed requests a second. A run due earlier than one
 * queued before it (a shorter lease set meanwhile) is forgotten when that one is: later, never sooner.
 */
const due: { at: number; requestId: string }[] = [];
let nextDue = 0;
let sweeper: NodeJS.Timeout | null = null;

export function endKeyRunAfter(requestId: string, delayMs: number, now: number = Date.now()): void {
  due.push({ at: now + delayMs, requestId });
  if (sweeper === null) scheduleSweep(now);
}

function scheduleSweep(now: number): void {
  sweeper = setTimeout(() => sweepDue(Date.now()), Math.max(0, due[nextDue].at - now));
  sweeper.unref();
}

function sweepDue(now: number): void {
  sweeper = null;
  while (nextDue < due.length && due[nextDue].at <= now) runs.delete(due[nextDue++].requestId);
  // Drop what was swept once it is most of the queue (amortized: each entry is moved at most once more).
  if (nextDue > 1024 && nextDue * 2 > due.length) {
    due.splice(0, nextDue);
    nextDue = 0;
  }
  if (nextDue < due.length) scheduleSweep(now);
}

/** Runs registered and not yet forgotten (for tests and figures). */
export function keyRunsHeld(): number {
  return runs.size;
}

/** For billing: the earlier charge that covers this request, if any (no map lookup when no key is in use). */
export function chargeCoveringRequest(requestId: string): KeyCharge | null {
  if (runs.size === 0) return null;
  return runs.get(requestId)?.coveredBy ?? null;
}

/** For billing: this request's charge was recorded. */
export function noteKeyCharge(requestId: string, costUsdMicros: number | null): void {
  const run = runs.size === 0 ? undefined : runs.get(requestId);
  if (run !== undefined) run.charged = { requestId, costUsdMicros };
}
