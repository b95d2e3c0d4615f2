import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openReadModelDb, READ_MODELS_FILE_NAME } from './read-model-db';
import { AUTOCHECKPOINT_PAGES, ReadModelCheckpointer } from './read-model-checkpointer';

const ROWS_PER_COMMIT = 200;
const COMMITS = 60;

let dataDir: string;
let db: Database.Database;
/** Stopped after each test even when it failed: a worker left running keeps Jest's process from exiting. */
let started: ReadModelCheckpointer[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'read-model-checkpointer-'));
  db = openReadModelDb(dataDir);
  db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
});

afterEach(async () => {
  await Promise.all(started.map((checkpointer) => checkpointer.stop()));
  started = [];
  if (db.open) db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const walBytes = (): number => statSync(join(dataDir, `${READ_MODELS_FILE_NAME}-wal`)).size;
const autocheckpoint = (): number => db.pragma('wal_autocheckpoint', { simple: true }) as number;

/**
 * Whether every frame in the WAL is copied into the database (a checkpoint caught up): the WAL-index header's
 * mxFrame (u32 at byte 16) against the checkpoint info's nBackfill (u32 at byte 96), native byte order
 * (https://www.sqlite.org/walformat.html). The next commit then starts the WAL again from its beginning.
 */
function walCheckpointed(): boolean {
  const shm = readFileSync(join(dataDir, `${READ_MODELS_FILE_NAME}-shm`)).subarray(0, 136);
  const read = (offset: number) => (isLittleEndian() ? shm.readUInt32LE(offset) : shm.readUInt32BE(offset));
  return read(96) === read(16);
}

const isLittleEndian = () => new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Waits for a condition, however busy the machine (a bound only to fail rather than hang). */
async function until(condition: () => boolean, boundMs = 20_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** About 60 x 200 rows of 1 KiB: some 12 MiB of WAL when nothing checkpoints it. `between` runs after each commit. */
async function writeCommits(between: () => Promise<void>): Promise<void> {
  const insert = db.prepare('INSERT INTO filler (payload) VALUES (?)');
  const commit = db.transaction(() => {
    for (let row = 0; row < ROWS_PER_COMMIT; row++) insert.run('x'.repeat(1024));
  });
  for (let index = 0; index < COMMITS; index++) {
    commit();
    await between();
  }
}

describe('ReadModelCheckpointer', () => {
  jest.setTimeout(30_000);

  it('takes checkpoints off the main connection and keeps the WAL from growing', async () => {
    const failures: Error[] = [];
    const checkpointer = await ReadModelCheckpointer.start(db, (error) => failures.push(error), 20);
    started.push(checkpointer);
    expect(autocheckpoint()).toBe(0);
    // Each commit waits for the worker's checkpoint (not for a time): the main connection never checkpoints.
    await writeCommits(() => until(walCheckpointed));
    expect(walBytes()).toBeLessThan(4 * 1024 * 1024);
    await checkpointer.stop();
    expect(autocheckpoint()).toBe(AUTOCHECKPOINT_PAGES);
    expect(failures).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: ROWS_PER_COMMIT * COMMITS });
  });

  it('is what keeps it small: without the worker and automatic checkpoints the WAL grows', async () => {
    db.pragma('wal_autocheckpoint = 0');
    await writeCommits(() => new Promise((resolve) => setImmediate(resolve)));
    expect(walCheckpointed()).toBe(false);
    expect(walBytes()).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('gives checkpoints back to the main connection when the worker dies', async () => {
    const failures: Error[] = [];
    const checkpointer = await ReadModelCheckpointer.start(db, (error) => failures.push(error), 20);
    started.push(checkpointer);
    // No public way to crash the worker: terminate it as a crash would end it.
    await (checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures.map((error) => error.message)).toEqual([expect.stringContaining('read-model checkpoint worker exited')]);
    expect(autocheckpoint()).toBe(AUTOCHECKPOINT_PAGES);
    await checkpointer.stop();
  });
});
