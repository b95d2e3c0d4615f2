// The spool on a real disk: reservation, synced records surviving a crash, a torn last record,
// the full edge, and the drain into a real SQLite store with the original event ids, exactly once.
import { mkdtempSync, openSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { WriteTrackingEventStore } from '../../event-store/write-tracking-event-store';
import { StoreWritesFailingError } from '../../event-store/store-writes-failing';
import { FaultyEventStore } from '../../../test/support/faulty-event-store';
import { BillingSpool, SPOOL_FILE_NAME } from './billing-spool';
import { SpoolFile, SpoolFullError } from './spool-file';
import { encodeSpoolRecord, type SpoolEntry } from './spool-record';

const entry = (n: number): SpoolEntry => ({
  streamId: `request-r${n}`,
  events: [
    { id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, type: 'UsageMeasured', data: { requestId: `r${n}` }, metadata: { schemaVersion: 1 } },
    { id: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`, type: 'CostPriced', data: { requestId: `r${n}`, costUsdMicros: 100 + n }, metadata: { schemaVersion: 1 } },
  ],
});
const RECORD_BYTES = encodeSpoolRecord(entry(1)).length;
jest.setTimeout(30_000);

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('billing spool on a real disk', () => {
  let dir: string;
  const opened: SpoolFile[] = [];
  const open = async (capacity: number) => {
    const file = await SpoolFile.open(join(dir, SPOOL_FILE_NAME), capacity);
    opened.push(file);
    return file;
  };
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gw-spool-'))));
  afterEach(async () => {
    for (const file of opened.splice(0)) await file.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reserves the whole capacity as allocated blocks, not a sparse file', async () => {
    const capacity = 4 * 1024 * 1024;
    await open(capacity);
    const stat = statSync(join(dir, SPOOL_FILE_NAME));
    console.log(`spool reserved: size ${stat.size} bytes, ${stat.blocks * 512} bytes allocated`);
    expect(stat.size).toBe(capacity);
    expect(stat.blocks * 512).toBeGreaterThanOrEqual(capacity);
  });

  it('gives back every synced record after a crash (the file reopened without being closed)', async () => {
    const first = await open(1024 * 1024);
    for (const n of [1, 2, 3]) await first.write(entry(n));
    const reopened = await open(1024 * 1024);
    expect(reopened.pending.map((record) => record.entry)).toEqual([entry(1), entry(2), entry(3)]);
    expect(reopened.usedBytes).toBe(3 * RECORD_BYTES);
  });

  it('ignores a torn last record and writes the next one in its place', async () => {
    const first = await open(1024 * 1024);
    for (const n of [1, 2]) await first.write(entry(n));
    const fd = openSync(join(dir, SPOOL_FILE_NAME), 'r+');
    writeSync(fd, encodeSpoolRecord(entry(3)).subarray(0, RECORD_BYTES - 7), 0, RECORD_BYTES - 7, 2 * RECORD_BYTES);
    closeSync(fd);
    const reopened = await open(1024 * 1024);
    expect(reopened.pending.map((record) => record.entry.streamId)).toEqual(['request-r1', 'request-r2']);
    await reopened.write(entry(4));
    expect((await open(1024 * 1024)).pending.map((record) => record.entry.streamId)).toEqual(['request-r1', 'request-r2', 'request-r4']);
  });

  it('takes records up to exactly its capacity, refuses the next, and reuses the space once all are drained', async () => {
    const file = await open(2 * RECORD_BYTES);
    await file.write(entry(1));
    await file.write(entry(2));
    await expect(file.write(entry(3))).rejects.toBeInstanceOf(SpoolFullError);
    for (const record of [...file.pending]) await file.markDrained(record);
    expect(file.usedBytes).toBe(0);
    await file.write(entry(3));
    expect((await open(2 * RECORD_BYTES)).pending.map((record) => record.entry.streamId)).toEqual(['request-r3']);
  });

  describe('drained into the store', () => {
    let sqlite: SqliteEventStore;
    let faulty: FaultyEventStore;
    let store: WriteTrackingEventStore;
    const track = (probeIntervalMs: number) => (store = new WriteTrackingEventStore(faulty, probeIntervalMs));
    beforeEach(async () => {
      sqlite = await SqliteEventStore.open(dir);
      faulty = new FaultyEventStore(sqlite);
      track(20);
    });
    afterEach(async () => {
      await store.stop();
      await store.close();
    });
    const stored = async (n: number) => (await store.readStream(`request-r${n}`)).map((event) => event.id);

    it('appends the spooled events with their original ids once the store writes again, exactly once across a crash mid-drain', async () => {
      faulty.failing.add('*');
      await expect(store.append('request-x', entry(9).events)).rejects.toThrow('SQLITE_READONLY');
      expect(store.ready()).toBe(false);
      const spool = await BillingSpool.open(dir, 1024 * 1024, store);
      await spool.keep(entry(1).streamId, entry(1).events);
      await spool.keep(entry(2).streamId, entry(2).events);
      expect(spool.counts()).toMatchObject({ spooled: 2, drained: 0, pending: 2 });
      // A crash after the store took record 1 but before the spool marked it drained:
      await sqlite.append(entry(1).streamId, entry(1).events);
      await spool.stop();
      faulty.failing.clear();
      const next = await BillingSpool.open(dir, 1024 * 1024, store);
      await until(() => next.counts().pending === 0);
      console.log('spool after recovery:', JSON.stringify(next.counts()));
      expect(store.ready()).toBe(true);
      expect(await stored(1)).toEqual(entry(1).events.map((event) => event.id));
      expect(await stored(2)).toEqual(entry(2).events.map((event) => event.id));
      expect(next.counts()).toMatchObject({ drained: 2, pending: 0, used_bytes: 0 });
      await next.stop();
    });

    it('when full, is not ready and holds every append until it has drained', async () => {
      faulty.failing.add('*');
      await store.append('request-x', entry(9).events).catch(() => undefined);
      const spool = await BillingSpool.open(dir, RECORD_BYTES, store);
      await spool.keep(entry(1).streamId, entry(1).events);
      await expect(spool.keep(entry(2).streamId, entry(2).events)).rejects.toBeInstanceOf(SpoolFullError);
      expect(spool.ready()).toBe(false);
      faulty.failing.clear();
      // Ready again once the drain has finished (the last record leaves `pending` a moment before).
      await until(() => spool.ready());
      expect(spool.counts().pending).toBe(0);
      expect(await stored(1)).toHaveLength(2);
      await spool.stop();
    });

    it('holds other appends while it is full, even once the store writes again, until it has drained', async () => {
      track(60_000); // no probe during the test: the test decides when the store is seen to recover
      faulty.failing.add('*');
      await store.append('request-x', entry(9).events).catch(() => undefined);
      const spool = await BillingSpool.open(dir, RECORD_BYTES, store);
      await spool.keep(entry(1).streamId, entry(1).events);
      await spool.keep(entry(2).streamId, entry(2).events).catch(() => undefined);
      faulty.failing.clear();
      await store.appendAttempt('request-probe', [{ id: '00000000-0000-4000-8000-0000000000ab', type: 'Other', data: {} }]);
      expect(store.ready()).toBe(true);
      const other = [{ id: '00000000-0000-4000-8000-0000000000aa', type: 'Other', data: {} }];
      await expect(store.append('request-y', other)).rejects.toThrow('the billing spool is full');
      await until(() => spool.ready());
      await expect(store.append('request-y', other)).resolves.toBeDefined();
      await spool.stop();
    });
  });
});
