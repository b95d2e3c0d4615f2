// The hub's start-up catch-up: one pass over the store from the oldest checkpoint, however many
// projections, each skipping what its own checkpoint covers; progress shown while it runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { DelegatingEventStore } from '../event-store/delegating-event-store';
import { comparePositions, type RecordedEvent } from '../event-store/event-store.port';
import type { Projection } from './projection-runner';
import { ProjectionHub } from './projection-hub';

/** Folds the positions it sees; `only` limits which event types move its checkpoint (like a projection that ignores the rest). */
class Recorder implements Projection {
  readonly seen: string[] = [];
  constructor(readonly name: string, private position: string | null, private readonly only: string | null = null) {}
  checkpoint(): string | null {
    return this.position;
  }
  apply(event: RecordedEvent): void {
    this.applyPage([event]);
  }
  applyPage(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (this.position !== null && comparePositions(event.position, this.position) <= 0) continue;
      if (this.only !== null && event.type !== this.only) continue;
      this.seen.push(event.position);
      this.position = event.position;
    }
  }
}

class CountingStore extends DelegatingEventStore {
  readonly reads: (string | null)[] = [];
  readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    this.reads.push(options.after);
    return super.readAll(options);
  }
}

describe('projection hub start-up catch-up', () => {
  let dir: string;
  let base: SqliteEventStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hub-catch-up-'));
    base = await SqliteEventStore.open(dir);
    // All in one group commit, in call order (positions 1..5000): 5000 commits one after another took
    // most of the hook's time on a loaded machine.
    await Promise.all(Array.from({ length: 5000 }, (_, index) =>
      base.append(`s-${index}`, [{ id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, type: index % 1000 === 0 ? 'Rare' : 'Common', data: { index }, metadata: {} }])));
  }, 30_000);

  afterEach(async () => {
    await base.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the store once from the oldest checkpoint; each projection applies only what its checkpoint lacks', async () => {
    const store = new CountingStore(base);
    const head = (await store.headPosition())!;
    const fresh = new Recorder('fresh', '4000');
    const behind = new Recorder('behind', '1000');
    const rare = new Recorder('rare', '1000', 'Rare');
    const hub = new ProjectionHub(store, [fresh, behind, rare]);
    await hub.start();
    await hub.stop();
    // Pages of 2048 from position 1000: 1000, 3048, then the empty read at the head; nothing per projection.
    // (Any later reads are the live subscription's, following from the head.)
    expect(store.reads.slice(0, 3)).toEqual(['1000', '3048', head]);
    expect(store.reads.slice(3).every((after) => after === head)).toBe(true);
    expect(fresh.seen).toHaveLength(1000);
    expect(fresh.checkpoint()).toBe(head);
    expect(behind.seen).toHaveLength(4000);
    // A projection whose checkpoint stays behind (it moves only on its own events) does not make the pass loop.
    expect(rare.seen).toEqual(['1001', '2001', '3001', '4001']);
    expect(hub.status()).toEqual({ startedUp: true, stuck: {}, parked: {} });
  });

  it('from nothing, starts at the beginning and reports its progress until caught up', async () => {
    const store = new CountingStore(base);
    const projection = new Recorder('only', null);
    const hub = new ProjectionHub(store, [projection]);
    const progress: unknown[] = [];
    const original = store.readAll.bind(store);
    store.readAll = async (options) => {
      progress.push(hub.status().catchingUp);
      return original(options);
    };
    await hub.start();
    await hub.stop();
    expect(store.reads[0]).toBeNull();
    // The catch-up's reads (the live subscription's follow, with no catch-up to report).
    expect(progress.slice(0, 4)).toEqual([
      { applied: 0, head: '5000', position: null },
      { applied: 2048, head: '5000', position: '2048' },
      { applied: 4096, head: '5000', position: '4096' },
      { applied: 5000, head: '5000', position: '5000' },
    ]);
    expect(progress.slice(4).every((entry) => entry === undefined)).toBe(true);
    expect(projection.seen).toHaveLength(5000);
    expect(hub.status().catchingUp).toBeUndefined();
  });
});
