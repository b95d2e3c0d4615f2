// The ledgers' snapshot as JSON text: per organization the folded revision, the last lease time and
// the slices that may still occupy budget (a few per organization; the admissions themselves are not
// in it, unlike the sliding log this replaced, so it stays small whatever the limit).
import { createLedgerState, type LedgerSlice, type LedgerState, type UsageBucket } from './rate-limit-ledger.rules';

type StoredSlice = [string, string, number, number, number, UsageBucket[] | null];
interface StoredLedger {
  revision: number;
  lastLeasedAt: number;
  slices: StoredSlice[];
}

/**
 * Every slice the ledgers still keep: the ledger forgets a slice once it occupies nothing (it knows the
 * window then), so this is at most the slices of one window per organization. Windows have no maximum,
 * so nothing is dropped here by age.
 */
export function encodeLedgers(state: LedgerState): string {
  const stored: Record<string, StoredLedger> = {};
  for (const [organizationId, ledger] of state.ledgers) {
    const slices = ledger.slices.map((slice): StoredSlice => [slice.sliceId, slice.replicaId, slice.count, slice.leasedAt, slice.usableUntil, slice.usage ?? slice.closedUsage]);
    stored[organizationId] = { revision: ledger.revision, lastLeasedAt: ledger.lastLeasedAt, slices };
  }
  return JSON.stringify({ version: 1, ledgers: stored });
}

/** Throws on anything that is not a version-1 ledger snapshot (the caller then replays the store). */
export function decodeLedgers(replicaId: string, text: string): LedgerState {
  const parsed = JSON.parse(text) as { version?: number; ledgers?: Record<string, StoredLedger> };
  if (parsed.version !== 1 || typeof parsed.ledgers !== 'object' || parsed.ledgers === null) throw new Error('not a rate-limit ledger snapshot');
  const state = createLedgerState(replicaId);
  for (const [organizationId, stored] of Object.entries(parsed.ledgers)) {
    if (!Number.isInteger(stored.revision) || !Array.isArray(stored.slices)) throw new Error(`bad ledger of ${organizationId}`);
    const slices = stored.slices.map(
      ([sliceId, holder, count, leasedAt, usableUntil, usage]): LedgerSlice => ({ sliceId, replicaId: holder, count, leasedAt, usableUntil, usage, closedUsage: null }),
    );
    state.ledgers.set(organizationId, { revision: stored.revision, lastLeasedAt: stored.lastLeasedAt, slices, free: 0, freeAt: Infinity, freeUntil: -Infinity });
  }
  return state;
}
