// The write tracker around a real SQLite store: what counts as failing, what is refused while it
// fails, and recovery found by the probe alone (no traffic).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultyEventStore } from '../../test/support/faulty-event-store';
import { EventIdConflictError, WrongExpectedRevisionError } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { WRITE_PROBE_STREAM, WriteTrackingEventStore } from './write-tracking-event-store';
import { StoreWritesFailingError } from './store-writes-failing';

jest.setTimeout(20_000);
const event = (n: number) => ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, type: 'Something', data: { n } });

describe('WriteTrackingEventStore', () => {
  let dir: string;
  let faulty: FaultyEventStore;
  let store: WriteTrackingEventStore;
  const changes: boolean[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-writes-'));
    faulty = new FaultyEventStore(await SqliteEventStore.open(dir));
    changes.length = 0;
    store = new WriteTrackingEventStore(faulty, 20, (failing) => changes.push(failing));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays ready through a revision conflict: that is the caller losing a race, not a failing store', async () => {
    await store.append('s', [event(1)]);
    await expect(store.append('s', [event(2)], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(store.ready()).toBe(true);
  });

  it('stays ready through an event id another stream holds: that append is refused alone', async () => {
    await store.append('s', [event(1)]);
    await expect(store.append('t', [event(1)])).rejects.toBeInstanceOf(EventIdConflictError);
    expect(store.ready()).toBe(true);
    expect(changes).toEqual([]);
    await store.append('t', [event(2)]);
  });

  it('after a failed append refuses the next ones without writing, then recovers through its probe alone', async () => {
    faulty.failing.add('*');
    await expect(store.append('s', [event(1)])).rejects.toThrow('SQLITE_READONLY');
    expect(store.ready()).toBe(false);
    faulty.failing.clear();
    // Refused although the inner store would write now: nothing is attempted until the probe says so.
    await expect(store.append('s', [event(2)])).rejects.toBeInstanceOf(StoreWritesFailingError);
    let recovered = 0;
    store.onRecovered(() => (recovered += 1));
    const deadline = Date.now() + 5000;
    while (!store.ready() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(store.ready()).toBe(true);
    expect(recovered).toBe(1);
    expect(changes).toEqual([true, false]);
    expect(await store.readStream('s')).toEqual([]);
    expect((await store.readStream(WRITE_PROBE_STREAM)).map((e) => e.type)).toEqual(['StoreWriteProbed']);
    await store.append('s', [event(3)]);
    expect((await store.readStream('s')).map((e) => e.id)).toEqual([event(3).id]);
  });
});
