import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openReadModelDb, READ_MODELS_FILE_NAME } from './read-model-db';
import { AUTOCHECKPOINT_PAGES, ReadModelCheckpointer } from './read-model-checkpointer';

const ROWS_PER_COMMIT = 200;
const COMMITS = 60;

let dataDir: string;
let db: Database.Database;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'read-model-checkpointer-'));
  db = openReadModelDb(dataDir);
  db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const walBytes = (): number => statSync(join(dataDir, `${READ_MODELS_FILE_NAME}-wal`)).size;
const autocheckpoint = (): number => db.pragma('wal_autocheckpoint', { simple: true }) as number;

/** About 60 x 200 rows of 1 KiB: some 12 MiB of WAL when nothing checkpoints it. */
async function writeCommitsSlowly(): Promise<void> {
  const insert = db.prepare('INSERT INTO filler (payload) VALUES (?)');
  const commit = db.transaction(() => {
    for (let row = 0; row < ROWS_PER_COMMIT; row++) insert.run('x'.repeat(1024));
  });
  for (let index = 0; index < COMMITS; index++) {
    commit();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ReadModelCheckpointer', () => {
  jest.setTimeout(30_000);

  it('takes checkpoints off the main connection and keeps the WAL from growing', async () => {
    const failures: Error[] = [];
    const checkpointer = await ReadModelCheckpointer.start(db, (error) => failures.push(error), 20);
    expect(autocheckpoint()).toBe(0);
    await writeCommitsSlowly();
    expect(walBytes()).toBeLessThan(4 * 1024 * 1024);
    await checkpointer.stop();
    expect(autocheckpoint()).toBe(AUTOCHECKPOINT_PAGES);
    expect(failures).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: ROWS_PER_COMMIT * COMMITS });
  });

  it('is what keeps it small: without the worker and automatic checkpoints the WAL grows', async () => {
    db.pragma('wal_autocheckpoint = 0');
    await writeCommitsSlowly();
    expect(walBytes()).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('gives checkpoints back to the main connection when the worker dies', async () => {
    const failures: Error[] = [];
    const checkpointer = await ReadModelCheckpointer.start(db, (error) => failures.push(error), 20);
    // No public way to crash the worker: terminate it as a crash would end it.
    await (checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures.map((error) => error.message)).toEqual([expect.stringContaining('read-model checkpoint worker exited')]);
    expect(autocheckpoint()).toBe(AUTOCHECKPOINT_PAGES);
    await checkpointer.stop();
  });
});
