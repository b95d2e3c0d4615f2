// Rate limiting on a real shared SQLite store: replicas leasing slices against each other, restarts
// from the snapshot, and the timers (snapshot, releases) surviving a store or disk that fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { FaultyEventStore } from '../../test/support/faulty-event-store';
import { openReadModelDb } from '../projections/read-model-db';
import { ProjectionHub } from '../projections/projection-hub';
import { EventSourcedRateLimiter } from './event-sourced-rate-limiter';
import { RateLimitProjection } from './rate-limit.projection';
import { createLedgerState, evolveLedger, freeBudget, ledgerOf, leaseStreamId, SLICE_LEASED, SLICE_RELEASED } from './rate-limit-ledger.rules';

const limit = { requests: 10, window_seconds: 60 };
const org = 'org-a';
const caller = { keyId: 'key', organizationId: org, organization: { id: org, payment_method: true, rate_limit: limit }, limits: { key: null, organization: null } };

interface Replica {
  store: FaultyEventStore;
  db: Database.Database;
  projection: RateLimitProjection;
  limiter: EventSourcedRateLimiter;
  hub: ProjectionHub;
}

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('rate limits on a shared store', () => {
  jest.setTimeout(60_000);
  let root: string;
  let now: number;
  let running: Replica[];
  let started = 0;
  const clock = (): number => now;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rate-limit-'));
    now = 1_000_000;
    running = [];
  });

  afterEach(async () => {
    await Promise.all(running.map(shutDown));
    rmSync(root, { recursive: true, force: true });
  });

  async function replica(name: string, options: { snapshotIntervalMs?: number; beforeStart?: (store: SqliteEventStore) => void } = {}): Promise<Replica> {
    const inner = await SqliteEventStore.open(join(root, 'shared-events'));
    options.beforeStart?.(inner);
    const store = new FaultyEventStore(inner);
    const db = openReadModelDb(join(root, name));
    const projection = new RateLimitProjection(db, { replicaId: `${name}-${started++}`, now: clock, snapshotIntervalMs: options.snapshotIntervalMs });
    const limiter = new EventSourcedRateLimiter(store, projection, 20);
    const hub = new ProjectionHub(store, [projection]);
    const replicaStarted = { store, db, projection, limiter, hub };
    running.push(replicaStarted);
    limiter.start();
    await hub.start();
    return replicaStarted;
  }

  async function shutDown(replica: Replica): Promise<void> {
    running = running.filter((r) => r !== replica);
    replica.store.failing.clear();
    await replica.limiter.stop();
    await replica.hub.stop();
    await replica.store.close();
    replica.db.close();
  }

  const admit = (on: Replica, requestId: string) => on.limiter.admit(caller, requestId, '/v1/chat/completions');
  const leaseEvents = async (on: Replica) => on.store.readStream(leaseStreamId(org));
  const admittedEvents = async (on: Replica) => (await on.store.readAll({ after: null, maxCount: 10_000 })).filter((e) => e.type === 'RequestAdmitted');

  it('two replicas bursting at once admit exactly the limit, through conditional lease appends that never over-grant', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const decisions = await Promise.all([a, b].flatMap((on, r) => Array.from({ length: 15 }, (_, i) => admit(on, `req-${r}-${i}`))));
    const admitted = decisions.filter((d) => d.admitted);
    process.stdout.write(`two in-process replicas, burst of 30: ${admitted.length} admitted (limit ${limit.requests})\n`);
    expect(admitted).toHaveLength(limit.requests);
    expect(decisions.filter((d) => !d.admitted).every((d) => d.retryAfterSeconds >= 1 && d.remaining === 0)).toBe(true);
    expect(await admittedEvents(a)).toHaveLength(limit.requests);
    const stream = await leaseEvents(a);
    const folded = createLedgerState('auditor');
    stream.forEach((event) => evolveLedger(folded, org, event));
    expect(freeBudget(ledgerOf(folded, org), limit, now)).toBe(0);
  });

  it('gives unused tokens back when stopped, so another replica can use them at once', async () => {
    const a = await replica('a');
    expect((await admit(a, 'r1')).remaining).toBe(9);
    await shutDown(a);
    const b = await replica('b');
    expect((await leaseEvents(b)).map((e) => e.type)).toEqual([SLICE_LEASED, SLICE_RELEASED]);
    const decisions = await Promise.all(Array.from({ length: 10 }, (_, i) => admit(b, `b-${i}`)));
    expect(decisions.filter((d) => d.admitted)).toHaveLength(9);
  });

  it('a restarted replica rebuilds its ledger from the snapshot and the events after it', async () => {
    const first = await replica('restart');
    for (let i = 0; i < 10; i++) await admit(first, `r${i}`);
    await shutDown(first);
    let readFrom: string | null | undefined;
    const restarted = await replica('restart', {
      beforeStart: (store) => {
        const readAll = store.readAll.bind(store);
        store.readAll = (options) => {
          readFrom ??= options.after;
          return readAll(options);
        };
      },
    });
    expect(readFrom).not.toBeNull();
    expect(await admit(restarted, 'r10')).toEqual({ admitted: false, limit: 10, remaining: 0, retryAfterSeconds: 60 });
    now += 60_000;
    expect((await admit(restarted, 'r11')).admitted).toBe(true);
  });

  it('a snapshot write that fails with SQLITE_FULL is logged, counted and retried on the next tick, never thrown', async () => {
    const a = await replica('full', { snapshotIntervalMs: 20 });
    // Enough lease streams that the snapshot no longer fits in the pages the database may have.
    for (let i = 0; i < 3000; i++) {
      const data = { organizationId: `org-${i}`, sliceId: `slice-${i}`, replicaId: 'elsewhere', count: 5, leasedAt: now, usableUntil: now + 6000, bucketMs: 375 };
      a.projection.foldLeaseEvents(`org-${i}`, [{ type: SLICE_LEASED, revision: 0, data }]);
    }
    const pages = a.db.pragma('page_count', { simple: true }) as number;
    a.db.pragma(`max_page_count = ${pages}`);
    expect(() => a.projection.saveSnapshot()).toThrow(expect.objectContaining({ code: 'SQLITE_FULL' }));
    await waitUntil(() => a.projection.snapshotFailures() >= 3);
    a.db.pragma('max_page_count = 1073741823');
    const failures = a.projection.snapshotFailures();
    await waitUntil(() => (a.db.prepare('SELECT length(state) AS size FROM rate_limit_ledger_snapshot').get() as { size: number } | undefined)?.size! > 100_000);
    expect(a.projection.snapshotFailures()).toBeLessThanOrEqual(failures + 1);
    expect((await admit(a, 'after-full')).admitted).toBe(true);
  });

  it('a release the store refuses is retried on the next tick; until then the slice keeps its whole count', async () => {
    const a = await replica('a');
    const b = await replica('b');
    await admit(a, 'r1');
    await waitUntil(() => b.projection.revisionOf(org) === 0);
    a.store.failing.add(SLICE_RELEASED);
    now += 6_000;
    await waitUntil(() => a.limiter.releaseFailures() >= 2);
    // A's slice of 5 still counts whole for B (5 free: B leases 3, uses 1), not just the 1 token A used.
    expect((await admit(b, 'b1')).remaining).toBe(4);
    a.store.failing.clear();
    await waitUntil(async () => (await leaseEvents(a)).some((e) => e.type === SLICE_RELEASED));
    expect((await leaseEvents(a)).find((e) => e.type === SLICE_RELEASED)!.data).toMatchObject({ usage: [[0, 1, 1_000_000]] });
  });

  it('a malformed lease event is counted and skipped, and neither stalls the projections nor breaks the next conditional lease', async () => {
    const a = await replica('a');
    await a.store.append(leaseStreamId(org), [{ id: '0b6f6a9e-2f7c-4a55-9d55-0c1f3c1e8f01', type: SLICE_LEASED, data: { count: 'lots' } }]);
    await waitUntil(() => a.projection.malformedEvents() === 1);
    expect(a.projection.revisionOf(org)).toBe(0);
    expect(await admit(a, 'r1')).toMatchObject({ admitted: true, remaining: 9 });
    expect((await leaseEvents(a)).map((e) => e.revision)).toEqual([0, 1]);
  });
});
