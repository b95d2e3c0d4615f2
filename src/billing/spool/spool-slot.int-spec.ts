// Replicas sharing a data directory each get a spool file of their own, a dead replica's slot is
// taken back, and what a replica that never came back left in its spool is drained by the next start.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { WriteTrackingEventStore } from '../../event-store/write-tracking-event-store';
import { BillingSpool } from './billing-spool';
import { SpoolFile } from './spool-file';
import { claimSpoolSlot, spoolPath } from './spool-slot';

jest.setTimeout(30_000);

/** A pid that is certainly not running: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('billing spool slots in a shared data directory', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gw-spool-slots-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives each live claimant its own file and takes back the slot of a process that is gone', async () => {
    const first = claimSpoolSlot(dir);
    // A live process (this test's parent) holds slot 1 as well.
    writeFileSync(`${spoolPath(dir, 1)}.lock`, String(process.ppid));
    writeFileSync(`${spoolPath(dir, 2)}.lock`, String(await deadPid()));
    const second = claimSpoolSlot(dir);
    expect([first.path, second.path]).toEqual([spoolPath(dir, 0), spoolPath(dir, 2)]);
    first.release();
    expect(existsSync(`${spoolPath(dir, 0)}.lock`)).toBe(false);
    expect(claimSpoolSlot(dir).path).toBe(spoolPath(dir, 0));
  });

  it("drains what a replica that never came back left in its slot, once, and frees the slot", async () => {
    const leftBehind = await SpoolFile.open(spoolPath(dir, 3), 1024 * 1024);
    const events = [{ id: '00000000-0000-4000-8000-000000000001', type: 'UsageMeasured', data: { requestId: 'r1' }, metadata: { schemaVersion: 1 } }];
    await leftBehind.write({ streamId: 'request-r1', events });
    await leftBehind.close();
    writeFileSync(`${spoolPath(dir, 3)}.lock`, String(await deadPid()));

    const store = new WriteTrackingEventStore(await SqliteEventStore.open(dir));
    const spool = await BillingSpool.open(dir, 1024 * 1024, store);
    const again = await BillingSpool.open(dir, 1024 * 1024, store);
    try {
      console.log(`swept slot 3: ${JSON.stringify(spool.counts())}`);
      expect(spool.counts()).toMatchObject({ drained: 1, pending: 0 });
      expect(again.counts()).toMatchObject({ drained: 0, pending: 0 });
      expect((await store.readStream('request-r1')).map((event) => event.id)).toEqual([events[0].id]);
      expect(existsSync(`${spoolPath(dir, 3)}.lock`)).toBe(false);
    } finally {
      await again.stop();
      await spool.stop();
      await store.close();
    }
  });
});
