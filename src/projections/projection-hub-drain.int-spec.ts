// A clean stop drains the hub: once the writers have stopped, every projection applies the store up to
// its head before the hub stops (build-runtime.ts); a projection that keeps failing ends the wait at its bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Projection } from './projection-runner';
import { ProjectionHub } from './projection-hub';

class Recorder implements Projection {
  position: string | null = null;
  failing = false;
  constructor(readonly name: string) {}
  checkpoint(): string | null {
    return this.position;
  }
  apply(event: RecordedEvent): void {
    this.applyPage([event]);
  }
  applyPage(events: readonly RecordedEvent[]): void {
    if (this.failing) throw new Error('read model unavailable');
    this.position = events[events.length - 1].position;
  }
}

describe('projection hub: drain to the store head at a clean stop', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hub-drain-'));
    store = await SqliteEventStore.open(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const append = (count: number) =>
    Promise.all(Array.from({ length: count }, (_, n) => store.append(`s-${n}`, [{ id: randomUUID(), type: 'Written', data: { n }, metadata: {} }])));

  it('returns once every projection applied the events written just before the stop', async () => {
    const projection = new Recorder('recorder');
    const hub = new ProjectionHub(store, [projection]);
    await hub.start();
    await append(50); // e.g. the slice releases a stopping rate limiter writes
    expect(await hub.drainToHead(5_000)).toBe(true);
    expect(projection.position).toBe(await store.headPosition());
    await hub.stop();
  });

  it('gives up at its bound when a projection keeps failing, and says so', async () => {
    const projection = new Recorder('stuck');
    const hub = new ProjectionHub(store, [projection]);
    await hub.start();
    projection.failing = true;
    await append(3);
    expect(await hub.drainToHead(300)).toBe(false);
    expect(projection.position).toBeNull();
    await hub.stop();
  });

  it('is at the head at once on an empty store, and does nothing on a hub that never started', async () => {
    const hub = new ProjectionHub(store, [new Recorder('idle')]);
    expect(await hub.drainToHead(5_000)).toBe(false);
    await hub.start();
    expect(await hub.drainToHead(5_000)).toBe(true);
    await hub.stop();
  });
});
