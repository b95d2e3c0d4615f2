// Commits on the main thread while the append worker is idle (inline-commit-policy.ts), on a real file:
// they are durable and read back, load still goes to the worker's group commit, another connection's
// write lock sends the appends to the worker instead of blocking the event loop, and the worker
// checkpoints for the inline commits so the WAL stays bounded.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { registerEventStoreContract } from '../../../test/support/event-store.contract';
import { DEFAULT_CATCH_UP_TIMING } from '../catch-up-subscription';
import { EVENTS_FILE_NAME, SqliteEventStore } from './sqlite-event-store';
import { CHECKPOINT_EVERY } from './inline-committer';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-inline-'));
  dirs.push(dir);
  return dir;
}
const event = (n: number) => ({ id: randomUUID(), type: 'E', data: { n } });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const workerOnlyDir = freshDir();
registerEventStoreContract('SQLite, every commit in the append worker', () => ({
  open: () => SqliteEventStore.open(workerOnlyDir, DEFAULT_CATCH_UP_TIMING, { inlineCommits: false }),
}));

describe('SQLite commits on the main thread while the worker is idle', () => {
  jest.setTimeout(60_000);

  it('commits an append to an idle store inline, durably: another instance reads it from the file', async () => {
    const dir = freshDir();
    const store = await SqliteEventStore.open(dir);
    try {
      const stream = `inline-${randomUUID()}`;
      const { position } = await store.append(stream, [event(1)]);
      expect(store.inlineCommits).toBe(1);
      const other = await SqliteEventStore.open(dir);
      try {
        const [read] = await other.readStream(stream);
        expect([read.position, read.data]).toEqual([position, { n: 1 }]);
      } finally {
        await other.close();
      }
    } finally {
      await store.close();
    }
  });

  it('commits nothing inline when switched off', async () => {
    const store = await SqliteEventStore.open(freshDir(), DEFAULT_CATCH_UP_TIMING, { inlineCommits: false });
    try {
      await store.append(`off-${randomUUID()}`, [event(1)]);
      expect(store.inlineCommits).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('leaves back-to-back appends to the worker, whose group commit still shares one commit among many', async () => {
    const store = await SqliteEventStore.open(freshDir());
    let commits = 0;
    store.observeCommitBatches(() => (commits += 1));
    try {
      const writer = async () => {
        for (let n = 0; n < 50; n++) await store.append(`load-${randomUUID()}`, [event(n)]);
      };
      await Promise.all(Array.from({ length: 20 }, writer));
      expect(commits - store.inlineCommits).toBeGreaterThan(0);
      expect(store.largestCommitBatch).toBeGreaterThan(1);
      expect(store.inlineCommits).toBeLessThan(commits / 2);
    } finally {
      await store.close();
    }
  });

  it("hands the appends to the worker when another connection holds the write lock, and commits them once it is released", async () => {
    const dir = freshDir();
    const store = await SqliteEventStore.open(dir);
    const other = new Database(join(dir, EVENTS_FILE_NAME));
    try {
      other.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      const appended = store.append(`locked-${randomUUID()}`, [event(1)]);
      await pause(200);
      other.exec('COMMIT');
      await appended;
      expect(performance.now() - started).toBeGreaterThanOrEqual(200);
      expect(store.inlineCommits).toBe(0);
    } finally {
      other.close();
      await store.close();
    }
  });

  it('asks the worker to checkpoint, so the WAL of inline commits restarts instead of growing', async () => {
    const dir = freshDir();
    // Every append inline, however busy the loop: only the checkpoints are under test here.
    const inlineTiming = { quietMs: 0, idleLoopUtilization: 1, slowCommitMs: 1000, pauseMs: 0 };
    const store = await SqliteEventStore.open(dir, DEFAULT_CATCH_UP_TIMING, { inlineCommits: true, inlineTiming });
    const commits = 2 * CHECKPOINT_EVERY + 50;
    let largestWal = 0;
    try {
      for (let n = 0; n < commits; n++) {
        await store.append(`wal-${randomUUID()}`, [event(n)]);
        largestWal = Math.max(largestWal, statSync(join(dir, `${EVENTS_FILE_NAME}-wal`)).size);
      }
      expect(store.inlineCommits).toBeGreaterThan(2 * CHECKPOINT_EVERY);
      // About 3 pages of 4 KiB per commit: the WAL restarts before SQLite's own 1,000-page trigger would
      // have a commit checkpoint it (the inline connection never does: wal_autocheckpoint=0).
      expect(largestWal).toBeLessThan(1000 * 4096);
    } finally {
      await store.close();
    }
  });
});
