import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { openReadModelDb } from '../read-model-db';
import { appendRequestAdmitted } from '../projection-test-events';
import { RateLimitProjection } from './rate-limit.projection';
import { ProjectionHub } from '../projection-hub';

const limit = { requests: 3, window_seconds: 60 };
const org = 'org-a';

interface Replica {
  store: SqliteEventStore;
  db: Database.Database;
  limits: RateLimitProjection;
  hub: ProjectionHub;
}

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('RateLimitProjection', () => {
  jest.setTimeout(60_000);
  let root: string;
  let now: number;
  let running: Replica[];
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

  async function replica(name: string, beforeStart: (store: SqliteEventStore) => Promise<void> = async () => undefined): Promise<Replica> {
    const store = await SqliteEventStore.open(join(root, 'shared-events'));
    await beforeStart(store);
    const db = openReadModelDb(join(root, name));
    const limits = new RateLimitProjection(db, { limitFor: () => limit, now: clock });
    const hub = new ProjectionHub(store, [limits]);
    const started = { store, db, limits, hub };
    running.push(started);
    limits.start();
    await hub.start();
    return started;
  }

  async function shutDown({ store, db, limits, hub }: Replica): Promise<void> {
    running = running.filter((replica) => replica.store !== store);
    await hub.stop();
    limits.stop();
    await store.close();
    db.close();
  }

  const admittedEvent = (requestId: string) => ({ requestId, organizationId: org, keyId: 'key', endpoint: '/v1/chat/completions', admittedAt: now });

  async function admitAndRecord(on: Replica, requestId: string): Promise<boolean> {
    const decision = on.limits.admit(org, limit, requestId);
    if (decision.admitted) await appendRequestAdmitted(on.store, admittedEvent(requestId));
    return decision.admitted;
  }

  it('shares one budget between replicas and counts a replica its own admissions once', async () => {
    const a = await replica('a');
    const b = await replica('b');
    expect(await admitAndRecord(a, 'r1')).toBe(true);
    expect(await admitAndRecord(a, 'r2')).toBe(true);
    await waitUntil(() => b.limits.decide(org, limit).remaining === 0);
    await waitUntil(() => a.limits.checkpoint() === b.limits.checkpoint());
    expect(a.limits.decide(org, limit)).toEqual({ admitted: true, remaining: 0, retryAfterSeconds: null });
    expect(await admitAndRecord(a, 'r3')).toBe(true);
    await waitUntil(() => !b.limits.decide(org, limit).admitted);
    expect(b.limits.admit(org, limit, 'r4')).toEqual({ admitted: false, remaining: 0, retryAfterSeconds: 60 });
  });

  it('restarts from its snapshot and replays only the events after it', async () => {
    const first = await replica('restart');
    await admitAndRecord(first, 'r1');
    await admitAndRecord(first, 'r2');
    await waitUntil(() => first.limits.checkpoint() === '2');
    await shutDown(first);

    let readAll: jest.SpyInstance | null = null;
    const restarted = await replica('restart', async (store) => {
      await appendRequestAdmitted(store, admittedEvent('r3'));
      readAll = jest.spyOn(store, 'readAll');
    });
    expect(readAll!.mock.calls[0][0].after).toBe('2');
    expect(restarted.limits.admit(org, limit, 'r4')).toEqual({ admitted: false, remaining: 0, retryAfterSeconds: 60 });
    now += 60_000;
    expect(restarted.limits.admit(org, limit, 'r5').admitted).toBe(true);
  });

  async function restartWithStoredState(state: string | Buffer): Promise<{ restarted: Replica; readFrom: string | null }> {
    const first = await replica('stored');
    await admitAndRecord(first, 'r1');
    await admitAndRecord(first, 'r2');
    await waitUntil(() => first.limits.checkpoint() === '2');
    await shutDown(first);
    running = running.filter((r) => r !== first);
    const db = openReadModelDb(join(root, 'stored'));
    db.prepare('UPDATE rate_limit_snapshot SET state = ? WHERE id = 1').run(state);
    db.close();
    let readAll: jest.SpyInstance | null = null;
    const restarted = await replica('stored', async (store) => {
      readAll = jest.spyOn(store, 'readAll');
    });
    return { restarted, readFrom: readAll!.mock.calls[0][0].after };
  }

  it('restores a snapshot stored as JSON text by an earlier version', async () => {
    const { restarted, readFrom } = await restartWithStoredState(JSON.stringify({ [org]: [['r1', now], ['r2', now]] }));
    expect(readFrom).toBe('2');
    expect(restarted.limits.decide(org, limit).remaining).toBe(0);
  });

  it('replays the whole store when the snapshot cannot be read', async () => {
    const { restarted, readFrom } = await restartWithStoredState(Buffer.from([9, 9, 9]));
    expect(readFrom).toBeNull();
    expect(restarted.limits.checkpoint()).toBe('2');
    expect(restarted.limits.decide(org, limit).remaining).toBe(0);
  });

  it('starts from the beginning of the store when there is no snapshot yet', async () => {
    const seed = await SqliteEventStore.open(join(root, 'shared-events'));
    for (const id of ['r1', 'r2', 'r3']) await appendRequestAdmitted(seed, admittedEvent(id));
    await seed.close();
    const fresh = await replica('fresh');
    expect(fresh.limits.checkpoint()).toBe('3');
    expect(fresh.limits.decide(org, limit).admitted).toBe(false);
  });
});
