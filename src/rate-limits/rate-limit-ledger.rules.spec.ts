import {
  createLedgerState,
  evolveLedger,
  freeBudget,
  ledgerOf,
  SLICE_LEASED,
  SLICE_RELEASED,
  type LeaseEvent,
  type LedgerState,
} from './rate-limit-ledger.rules';
import { closeExpired, holdLeased, planLease, remainingFor, returnToken, takeToken, unreleased } from './rate-limit-slices.rules';
import { decodeLedgers, encodeLedgers } from './rate-limit-ledger.snapshot';

const org = 'org-a';
const WINDOW_MS = 60_000;
const limitOf = (requests: number) => ({ requests, window_seconds: WINDOW_MS / 1000 });

/** The lease stream of one organization as the store keeps it: conditional appends, replicas folding it with a lag. */
class LeaseStream {
  readonly events: LeaseEvent[] = [];
  leases = 0;
  private sliceIds = 0;

  /** One admission attempt at `now`, as the rate limiter makes it: a token, else a lease by conditional append (re-reading on conflict). */
  admit(replica: LedgerState, limit: { requests: number; window_seconds: number }, now: number): { admitted: boolean; retryAfterSeconds?: number } {
    for (;;) {
      if (takeToken(replica, org, now)) return { admitted: true };
      const sliceId = `slice-${this.sliceIds++}`;
      const plan = planLease(replica, org, limit, now, sliceId);
      if (plan.kind === 'refuse') return { admitted: false, retryAfterSeconds: plan.retryAfterSeconds };
      if (plan.expectedRevision !== this.events.length - 1) {
        this.deliver(replica);
        continue;
      }
      const appended = [...plan.releases.map((data) => ({ type: SLICE_RELEASED, data })), { type: SLICE_LEASED, data: plan.lease }];
      for (const event of appended) this.events.push({ ...event, revision: this.events.length });
      this.deliver(replica);
      holdLeased(replica, org, sliceId, plan.lease.bucketMs);
      this.leases++;
    }
  }

  /** The release timer's unconditional append. */
  releaseExpired(replica: LedgerState, now: number, everything = false): void {
    if (closeExpired(replica, now, everything).length === 0) return;
    for (const data of unreleased(replica, org, now)) this.events.push({ type: SLICE_RELEASED, data, revision: this.events.length });
    this.deliver(replica);
  }

  /** What the subscription (or a conflict's re-read) brings: every event not folded yet. */
  deliver(replica: LedgerState): void {
    for (const event of this.events) evolveLedger(replica, org, event);
  }
}

/** The most admissions found in any window of `windowMs` (admission times in any order). */
function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let end = 0, start = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing interleaving can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('rate-limit ledger: one replica', () => {
  it('admits exactly the limit in a window with about log2(limit) leases, then refuses until the oldest use leaves the window', () => {
    const stream = new LeaseStream();
    const replica = createLedgerState('r1');
    const limit = limitOf(60);
    const admitted = Array.from({ length: 80 }, (_, i) => stream.admit(replica, limit, 1_000 + i));
    expect(admitted.filter((a) => a.admitted)).toHaveLength(60);
    expect(stream.leases).toBeLessThanOrEqual(7);
    expect(admitted[60]).toEqual({ admitted: false, retryAfterSeconds: 60 });
    expect(stream.admit(replica, limit, 1_000 + WINDOW_MS - 1).admitted).toBe(false);
    expect(stream.admit(replica, limit, 1_000 + WINDOW_MS + 100).admitted).toBe(true);
  });

  it('leases half of the free budget, and X-RateLimit-Remaining counts the unused tokens plus the budget nobody holds', () => {
    const stream = new LeaseStream();
    const replica = createLedgerState('r1');
    const limit = limitOf(3);
    expect(stream.admit(replica, limit, 1_000).admitted).toBe(true);
    expect(ledgerOf(replica, org).slices[0].count).toBe(2);
    expect(remainingFor(replica, org, limit, 1_000, replica.held.get(org)!)).toBe(2);
    stream.admit(replica, limit, 1_001);
    expect(remainingFor(replica, org, limit, 1_001, replica.held.get(org)!)).toBe(1);
    stream.admit(replica, limit, 1_002);
    expect(remainingFor(replica, org, limit, 1_002, replica.held.get(org)!)).toBe(0);
  });

  it('does not append per request once a slice is held (the steady state of a large limit)', () => {
    const stream = new LeaseStream();
    const replica = createLedgerState('r1');
    const limit = limitOf(1_000_000);
    for (let i = 0; i < 5_000; i++) expect(stream.admit(replica, limit, 1_000 + i).admitted).toBe(true);
    expect(stream.leases).toBe(1);
  });
});

describe('rate-limit ledger: slices', () => {
  it('a released slice gives back its unused tokens at once and its used ones when their last use leaves the window', () => {
    const stream = new LeaseStream();
    const a = createLedgerState('a');
    const limit = limitOf(10);
    for (let i = 0; i < 3; i++) stream.admit(a, limit, 1_000 + i);
    expect(freeBudget(ledgerOf(a, org), limit, 1_003)).toBe(5);
    stream.releaseExpired(a, 1_003, true);
    expect(freeBudget(ledgerOf(a, org), limit, 1_003)).toBe(7);
    expect(freeBudget(ledgerOf(a, org), limit, 1_002 + WINDOW_MS)).toBe(10);
  });

  it('a replica that dies holding a slice blocks it only until the slice is no longer usable plus the window', () => {
    const stream = new LeaseStream();
    const dead = createLedgerState('dead');
    const other = createLedgerState('other');
    const limit = limitOf(10);
    stream.admit(dead, limit, 1_000);
    const slice = ledgerOf(dead, org).slices[0];
    stream.deliver(other);
    expect(freeBudget(ledgerOf(other, org), limit, 2_000)).toBe(5);
    expect(freeBudget(ledgerOf(other, org), limit, slice.usableUntil + WINDOW_MS - 1)).toBe(5);
    expect(freeBudget(ledgerOf(other, org), limit, slice.usableUntil + WINDOW_MS)).toBe(10);
  });

  it('a token given back after its slice was closed stays counted, so it cannot be admitted twice', () => {
    const stream = new LeaseStream();
    const a = createLedgerState('a');
    const limit = limitOf(2);
    stream.admit(a, limit, 1_000);
    const held = a.held.get(org)!;
    stream.releaseExpired(a, 1_001, true);
    returnToken(a, org, held, 1_000);
    expect(unreleased(a, org, 1_001)).toEqual([]);
    expect(ledgerOf(a, org).slices[0].usage).toEqual([[0, 1, 1_000]]);
  });

  it('folds each event of the stream once, whether it comes back through the subscription or a re-read', () => {
    const stream = new LeaseStream();
    const a = createLedgerState('a');
    stream.admit(a, limitOf(10), 1_000);
    const before = JSON.stringify([...a.ledgers]);
    stream.deliver(a);
    expect(evolveLedger(a, org, stream.events[0])).toBe('seen');
    expect(JSON.stringify([...a.ledgers])).toBe(before);
    expect(ledgerOf(a, org).revision).toBe(0);
  });

  it('skips a malformed event but advances the revision, so the next conditional append still matches the stream', () => {
    const a = createLedgerState('a');
    expect(evolveLedger(a, org, { type: SLICE_LEASED, revision: 0, data: { sliceId: 's', count: -1 } })).toBe('malformed');
    expect(evolveLedger(a, org, { type: SLICE_RELEASED, revision: 1, data: { sliceId: 's', usage: [[0, 'x', 1]] } })).toBe('malformed');
    expect(evolveLedger(a, org, { type: SLICE_LEASED, revision: 2, data: null })).toBe('malformed');
    expect(ledgerOf(a, org)).toMatchObject({ revision: 2, slices: [] });
    expect(freeBudget(ledgerOf(a, org), limitOf(10), 1_000)).toBe(10);
  });

  it('snapshots and restores the ledger, and refuses a snapshot it cannot read', () => {
    const stream = new LeaseStream();
    const a = createLedgerState('a');
    const limit = limitOf(10);
    for (let i = 0; i < 4; i++) stream.admit(a, limit, 1_000 + i);
    stream.releaseExpired(a, 1_010, true);
    const restored = decodeLedgers('a-after-restart', encodeLedgers(a));
    expect(freeBudget(ledgerOf(restored, org), limit, 1_010)).toBe(6);
    expect(ledgerOf(restored, org).revision).toBe(ledgerOf(a, org).revision);
    expect(() => decodeLedgers('x', '[1,2]')).toThrow();
  });
});

describe('rate-limit ledger: replicas bursting together (bound 0)', () => {
  it.each([2, 3, 5, 8])('%i replicas with lagging views never admit more than the limit in any window', (replicaCount) => {
    const next = random(replicaCount);
    const limit = limitOf(20);
    for (let trial = 0; trial < 40; trial++) {
      const stream = new LeaseStream();
      const replicas = Array.from({ length: replicaCount }, (_, i) => createLedgerState(`r${i}`));
      const admissions: number[] = [];
      let now = 1_000;
      for (let step = 0; step < 600; step++) {
        now += Math.floor(next() * 400);
        const replica = replicas[Math.floor(next() * replicaCount)];
        const roll = next();
        if (roll < 0.1) stream.deliver(replica);
        else if (roll < 0.15) stream.releaseExpired(replica, now, next() < 0.3);
        else if (stream.admit(replica, limit, now).admitted) admissions.push(now);
      }
      expect(busiestWindow(admissions, WINDOW_MS)).toBeLessThanOrEqual(limit.requests);
      expect(busiestWindow(admissions, WINDOW_MS)).toBeGreaterThanOrEqual(limit.requests / 2);
    }
  });

  it('a simultaneous burst on every replica admits the limit at most, and most of it', () => {
    for (const replicaCount of [2, 3]) {
      const stream = new LeaseStream();
      const replicas = Array.from({ length: replicaCount }, (_, i) => createLedgerState(`r${i}`));
      let admitted = 0;
      for (let round = 0; round < 30; round++) for (const replica of replicas) if (stream.admit(replica, limitOf(20), 1_000).admitted) admitted++;
      expect(admitted).toBe(20);
    }
  });
});
