// Every projection the ProjectionHub feeds meets hostile events, at start-up catch-up and live: each is
// parked (recorded once, checkpoint moved past it) and the good events after it are still applied.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { openReadModelDb } from '../read-model-db';
import { ProjectionHub } from '../projection-hub';
import { DailyCostProjection } from '../../costs/read-model/daily-cost.projection';
import { CostReadModel } from '../../costs/read-model/cost-read-model';
import { ModelStatusProjection } from '../../models/model-status/model-status.projection';
import { RateLimitProjection } from '../../rate-limits/rate-limit.projection';
import { appendCostPriced, appendModelStatus, appendRequestAdmitted, costPriced, lineItem } from '../../../test/support/projection-test-events';
import { ParkingLot } from './apply-or-park';
import { ParkedEvents } from './parked-events';
import { EventContractError } from './event-contract-error';

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
  }
}

describe('parking hostile events in every projection', () => {
  jest.setTimeout(60_000);
  let dir: string;
  let store: SqliteEventStore;
  let db: Database.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parking-'));
    store = await SqliteEventStore.open(join(dir, 'events'));
    db = openReadModelDb(join(dir, 'read-models'));
  });

  afterEach(async () => {
    db.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function appendRaw(type: string, data: unknown, metadata: Record<string, unknown> = { schemaVersion: 1 }): Promise<string> {
    const id = randomUUID();
    await store.append(`hostile-${id}`, [{ id, type, data, metadata }]);
    return id;
  }

  /** A lease event in an organization's lease stream (the rate-limit projection folds only those). */
  async function appendLease(tag: string, data: unknown): Promise<string> {
    const id = randomUUID();
    await store.append(`ratelimit-org-${tag}`, [{ id, type: 'RateLimitSliceLeased', data, metadata: { schemaVersion: 1 } }]);
    return id;
  }

  /** One hostile event of each kind for each projection; returns the ids per projection. */
  async function appendHostile(tag: string): Promise<Record<string, string[]>> {
    const good = costPriced(`x-${tag}`, 'org-a', '2025-03-10T10:00:00Z', [lineItem('m, input text tokens', 1, '1')]);
    return {
      'daily-cost': [
        await appendRaw('CostPriced', { ...good, costUsdMicros: 2 ** 53 + 2 }),
        await appendRaw('CostPriced', { ...good, costUsdMicros: 1.5 }),
        await appendRaw('CostPriced', { ...good, organizationId: undefined, lineItems: undefined }),
        await appendRaw('CostPriced', 'garbage'),
        await appendRaw('CostPriced', good, { schemaVersion: 99 }),
      ],
      'model-status': [await appendRaw('ModelStatusChanged', null), await appendRaw('ModelStatusChanged', { model: 'gpt-mini', status: 'lukewarm', observedAt: 'now' })],
      'rate-limit': [await appendLease(tag, null)],
    };
  }

  async function appendGood(n: number, observedAt: string): Promise<void> {
    await appendCostPriced(store, costPriced(`good-${n}`, 'org-a', '2025-03-10T12:00:00Z', [lineItem('m, input text tokens', 100, '1')]));
    await appendModelStatus(store, { model: 'gpt-mini', status: n % 2 ? 'cold' : 'warm', previous: null, observedAt, reason: 'probe' });
    await appendRequestAdmitted(store, { requestId: `good-${n}`, organizationId: 'org-a', keyId: 'k', endpoint: '/v1/chat/completions', admittedAt: Date.now() });
  }

  function openHub(): { hub: ProjectionHub; parking: ParkingLot; projections: { name: string; checkpoint(): string | null }[]; status: ModelStatusProjection; rate: RateLimitProjection } {
    const parking = new ParkingLot(new ParkedEvents(db));
    const rate = new RateLimitProjection(db, {
      replicaId: 'replica-a',
      onMalformed: (event, reason) => parking.park('rate-limit', event, new EventContractError(reason)),
    });
    rate.start();
    const status = new ModelStatusProjection(db);
    const projections = [rate, status, new DailyCostProjection(db)];
    const errors: unknown[] = [];
    const hub = new ProjectionHub(store, projections, (_name, error) => errors.push(error), { parking });
    return { hub, parking, projections, status, rate };
  }

  it('parks at start-up and live, applies every good event after them, and gates readiness until acknowledged', async () => {
    await appendGood(0, '2025-03-10T00:00:00Z');
    const atStartUp = await appendHostile('start');
    await appendGood(1, '2025-03-10T01:00:00Z');

    const { hub, parking, projections, status, rate } = openHub();
    await hub.start();
    const live = await appendHostile('live');
    await appendGood(2, '2025-03-10T02:00:00Z');
    const head = await store.headPosition();
    await waitUntil(() => projections.every((projection) => projection.checkpoint() === head));

    expect(new CostReadModel(db).rows('org-a', '2025-03-10', '2025-03-11', null)).toEqual([{ day: '2025-03-10', group: null, amountUsdMicros: 300n }]);
    expect(status.statuses().get('gpt-mini')).toEqual({ status: 'warm', observedAt: '2025-03-10T02:00:00Z' });
    // The malformed lease events were skipped (their revisions still count for conditional leases).
    expect(rate.malformedEvents()).toBe(2);

    const parked = parking.records.list();
    for (const name of ['daily-cost', 'model-status', 'rate-limit']) {
      const ids = parked.filter((row) => row.projection === name).map((row) => row.eventId);
      expect(ids.sort()).toEqual([...atStartUp[name], ...live[name]].sort());
    }
    expect(parked.find((row) => row.eventId === atStartUp['daily-cost'][0])?.reason).toBe(
      'EventContractError: CostPriced "x-start": costUsdMicros is not an integer number of micros: 9007199254740994',
    );
    const counts = { 'daily-cost': 10, 'model-status': 4, 'rate-limit': 2 };
    console.log(`parked per projection: ${JSON.stringify(hub.status().parked)}; good events applied: 3 costs (300 micros), 3 statuses`);
    expect(hub.status()).toEqual({ startedUp: true, stuck: {}, parked: counts });
    expect(parking.countsSinceStart()).toEqual(counts);
    expect(hub.ready()).toBe(false);

    expect(parking.records.acknowledge(atStartUp['daily-cost'][0])).toBe(1);
    expect(hub.status().parked['daily-cost']).toBe(9);
    expect(parking.records.acknowledge('all')).toBe(15);
    expect(hub.ready()).toBe(true);
    await hub.stop();
    rate.stop();

    // A restart on the same store and read model starts cleanly and parks nothing twice.
    const again = openHub();
    await again.hub.start();
    expect(again.parking.countsSinceStart()).toEqual({});
    expect(again.hub.ready()).toBe(true);
    await again.hub.stop();
    again.rate.stop();
  });

  it('retries an infrastructure failure without parking, reports the projection stuck past the threshold, recovers', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const parking = new ParkingLot(new ParkedEvents(db));
    const cost = new DailyCostProjection(db);
    const errors: string[] = [];
    const hub = new ProjectionHub(store, [cost], (name, error) => errors.push(`${name}: ${(error as Error).message}`), { parking, stuckAfterMs: 10_000, now: () => now });
    await hub.start();
    expect(hub.ready()).toBe(true);
    db.exec(`CREATE TRIGGER disk_full BEFORE INSERT ON cost_daily_totals BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    await appendGood(0, '2025-03-10T00:00:00Z');
    await waitUntil(() => errors.length >= 1);
    now += 10_000;
    expect(hub.status().stuck).toEqual({});
    now += 1;
    expect(hub.status()).toEqual({ startedUp: true, stuck: { 'daily-cost': '2026-01-01T00:00:00.000Z' }, parked: {} });
    expect(hub.ready()).toBe(false);
    await waitUntil(() => errors.length >= 2);
    expect(errors[0]).toBe('daily-cost: database or disk is full');

    db.exec('DROP TRIGGER disk_full');
    const head = await store.headPosition();
    await waitUntil(() => cost.checkpoint() === head);
    console.log(`infrastructure failure: ${errors.length} failed attempts retried, 0 parked, then applied`);
    expect(parking.records.list()).toEqual([]);
    expect(new CostReadModel(db).rows('org-a', '2025-03-10', '2025-03-11', null)).toEqual([{ day: '2025-03-10', group: null, amountUsdMicros: 100n }]);
    expect(hub.ready()).toBe(true);
    await hub.stop();
  });
});
