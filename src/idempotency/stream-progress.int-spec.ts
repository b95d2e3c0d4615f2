// The progress journal on a real data directory (its SQLite database) and the recovery on a real SQLite store,
// including the files that versions before the database kept.
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { eventIdFor, newRequestId, requestStreamId } from '../event-store/event-ids';
import { PROGRESS_BYTES, PROGRESS_INTERVAL_MS, StreamProgressJournal, progressRoot, type PendingCharge } from './stream-progress';
import { STREAM_PROGRESS_FILE_NAME } from './stream-progress-db';
import { recoverCutStreams } from './recover-cut-streams';

function pendingOf(requestId: string, tokens: number): PendingCharge {
  const data = { requestId, tokens };
  return { streamId: requestStreamId(requestId), events: [{ id: eventIdFor(requestId, 'UsageMeasured'), type: 'UsageMeasured', data }, { id: eventIdFor(requestId, 'CostPriced'), type: 'CostPriced', data }] };
}

async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !check(); await new Promise((resolve) => setTimeout(resolve, 5))) if (Date.now() > deadline) throw new Error('condition not met');
}

describe('stream progress', () => {
  let dataDir: string;
  const journals: StreamProgressJournal[] = [];
  const open = (now?: () => number) => {
    const journal = new StreamProgressJournal(dataDir, now);
    journals.push(journal);
    return journal;
  };
  /** What another process reading the data directory finds: request id -> recorded tokens. */
  const recorded = (): Record<string, number> => {
    const db = new Database(join(dataDir, STREAM_PROGRESS_FILE_NAME), { readonly: true });
    try {
      const rows = db.prepare<[], { request_id: string; charge: string }>('SELECT request_id, charge FROM stream_progress').all();
      return Object.fromEntries(rows.map((row) => [row.request_id, ((JSON.parse(row.charge) as PendingCharge).events[0].data as { tokens: number }).tokens]));
    } finally {
      db.close();
    }
  };
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'gw-progress-'))));
  afterEach(() => {
    for (const journal of journals.splice(0)) journal.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('records at the first content, then once per interval or per 64 KB, and forgets the stream once settled', async () => {
    let now = 0;
    const journal = open(() => now);
    const requestId = newRequestId();
    const tracker = journal.track(requestId);
    const built: number[] = [];
    const observe = (bytes: number, tokens: number) => tracker.observe(bytes, () => (built.push(tokens), pendingOf(requestId, tokens)));
    observe(10, 1);
    await until(() => recorded()[requestId] === 1);
    now = PROGRESS_INTERVAL_MS - 1;
    observe(10, 2);
    now = PROGRESS_INTERVAL_MS;
    observe(10, 3);
    await until(() => recorded()[requestId] === 3);
    observe(PROGRESS_BYTES - 1, 4);
    observe(1, 5);
    expect(built).toEqual([1, 3, 5]);
    await until(() => recorded()[requestId] === 5);
    await tracker.settled();
    await until(() => !(requestId in recorded()));
    observe(PROGRESS_BYTES, 6);
    expect(built).toEqual([1, 3, 5]);
  });

  it('writes the records of many streams in one turn together, each stream its newest, and keeps the database owner-only', async () => {
    const previous = process.umask(0o022);
    try {
      let now = 0;
      const journal = open(() => now);
      const ids = Array.from({ length: 50 }, () => newRequestId());
      const trackers = ids.map((id) => journal.track(id));
      trackers.forEach((tracker, index) => tracker.observe(1, () => pendingOf(ids[index], index)));
      now = PROGRESS_INTERVAL_MS;
      trackers.forEach((tracker, index) => tracker.observe(1, () => pendingOf(ids[index], 1000 + index)));
      await until(() => Object.keys(recorded()).length === 50);
      expect(recorded()).toEqual(Object.fromEntries(ids.map((id, index) => [id, 1000 + index])));
      expect(statSync(join(dataDir, STREAM_PROGRESS_FILE_NAME)).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  it('writes what is queued when closed, and records nothing after', async () => {
    const journal = open();
    const [first, second] = [newRequestId(), newRequestId()];
    journal.track(first).observe(1, () => pendingOf(first, 1));
    journal.close();
    expect(recorded()).toEqual({ [first]: 1 });
    journal.track(second).observe(1, () => pendingOf(second, 2));
    expect(recorded()).toEqual({ [first]: 1 });
  });

  it('a charge that cannot be priced is not recorded, and the stream goes on', async () => {
    const journal = open();
    const requestId = newRequestId();
    const tracker = journal.track(requestId);
    expect(() => tracker.observe(1, () => { throw new Error('no price'); })).not.toThrow();
    journal.close();
    expect(recorded()).toEqual({});
  });

  it('recovers a dead process\'s progress once, with the charge\'s own ids; a settled stream is left alone', async () => {
    const store = await SqliteEventStore.open(dataDir);
    const journal = open();
    const [cut, settled] = [newRequestId(), newRequestId()];
    for (const [requestId, tokens] of [[cut, 7], [settled, 9]] as const) journal.track(requestId).observe(1, () => pendingOf(requestId, tokens));
    await until(() => Object.keys(recorded()).length === 2);
    await store.append(requestStreamId(settled), pendingOf(settled, 12).events);
    // This process's own records are a previous life's at start-up.
    expect(await recoverCutStreams(store, dataDir)).toEqual({ charged: 1, alreadyCharged: 1 });
    const cutEvents = await store.readStream(requestStreamId(cut));
    expect(cutEvents.map((event) => [event.id, event.data, event.metadata.recoveredFrom])).toEqual([
      [eventIdFor(cut, 'UsageMeasured'), { requestId: cut, tokens: 7 }, 'stream_progress'],
      [eventIdFor(cut, 'CostPriced'), { requestId: cut, tokens: 7 }, 'stream_progress'],
    ]);
    expect((await store.readStream(requestStreamId(settled))).map((event) => (event.data as { tokens: number }).tokens)).toEqual([12, 12]);
    expect(recorded()).toEqual({});
    expect(await recoverCutStreams(store, dataDir)).toEqual({ charged: 0, alreadyCharged: 0 });
    await store.close();
  });

  it('leaves the records of a process that still runs', async () => {
    const store = await SqliteEventStore.open(dataDir);
    const db = new Database(join(dataDir, STREAM_PROGRESS_FILE_NAME));
    const living = process.ppid;
    const requestId = newRequestId();
    db.prepare('CREATE TABLE IF NOT EXISTS stream_progress (owner INTEGER NOT NULL, request_id TEXT NOT NULL, charge TEXT NOT NULL, PRIMARY KEY (owner, request_id))').run();
    db.prepare('INSERT INTO stream_progress VALUES (?, ?, ?)').run(living, requestId, JSON.stringify(pendingOf(requestId, 3)));
    db.close();
    expect(await recoverCutStreams(store, dataDir)).toEqual({ charged: 0, alreadyCharged: 0 });
    expect(recorded()).toEqual({ [requestId]: 3 });
    await store.close();
  });

  it('recovers the progress files an earlier version left, once, and removes them', async () => {
    const store = await SqliteEventStore.open(dataDir);
    const requestId = newRequestId();
    const dir = join(progressRoot(dataDir), String(process.pid));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${requestId}.json`), JSON.stringify(pendingOf(requestId, 4)));
    expect(await recoverCutStreams(store, dataDir)).toEqual({ charged: 1, alreadyCharged: 0 });
    expect((await store.readStream(requestStreamId(requestId))).map((event) => event.type)).toEqual(['UsageMeasured', 'CostPriced']);
    expect(existsSync(dir)).toBe(false);
    expect(await recoverCutStreams(store, dataDir)).toEqual({ charged: 0, alreadyCharged: 0 });
    await store.close();
  });
});
