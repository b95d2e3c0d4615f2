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
