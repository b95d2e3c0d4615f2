// Kept bodies on a real data directory: the SQLite database (owner-only, shared by replicas on one
// directory), the sweep at the retention's edge, the keeps of one turn sharing one transaction, and what
// earlier versions kept, in the `kept_bodies` table or as files (read and swept).
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESPONSE_BODIES_FILE_NAME, ResponseBodies } from './response-bodies';
import { LEGACY_BODIES_DIR } from './legacy-body-files';
import { encodeChunks } from './chunk-codec';
import { newRequestId } from '../event-store/event-ids';

const STREAM = 'idempotency-org-1-0f0e';
const RETENTION_MS = 60_000;

/** A body as earlier versions wrote it: JSON of base64 chunks, named by the stream's hash and the request. */
function writeLegacyFile(dataDir: string, streamId: string, requestId: string, chunks: Buffer[], writtenAt: Date): string {
  const dir = join(dataDir, LEGACY_BODIES_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${createHash('sha256').update(streamId).digest('hex')}-${requestId}.json`);
  writeFileSync(file, JSON.stringify(chunks.map((chunk) => chunk.toString('base64'))), { mode: 0o600 });
  utimesSync(file, writtenAt, writtenAt);
  return file;
}

/** The previous version's layout, as it created it. */
const PREVIOUS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS kept_bodies (
    stream_hash TEXT    NOT NULL,
    request_id  TEXT    NOT NULL,
    chunks      BLOB    NOT NULL,
    kept_at     INTEGER NOT NULL,
    PRIMARY KEY (stream_hash, request_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS kept_bodies_by_age ON kept_bodies (kept_at);
`;

/** Rows as the previous version wrote them, in its own table of the database (created as it did). */
function writePreviousRows(dataDir: string, rows: { requestId: string; chunks: Buffer[]; keptAt: Date }[]): void {
  const db = new Database(join(dataDir, RESPONSE_BODIES_FILE_NAME));
  try {
    db.pragma('journal_mode = WAL');
    db.exec(PREVIOUS_SCHEMA);
    const insert = db.prepare('INSERT OR REPLACE INTO kept_bodies (stream_hash, request_id, chunks, kept_at) VALUES (?, ?, ?, ?)');
    for (const row of rows) insert.run(createHash('sha256').update(STREAM).digest('hex'), row.requestId, encodeChunks(row.chunks), row.keptAt.getTime());
  } finally {
    db.close();
  }
}

function countRows(dataDir: string, table: string): number {
  const db = new Database(join(dataDir, RESPONSE_BODIES_FILE_NAME), { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('ResponseBodies', () => {
  let dataDir: string;
  const opened: ResponseBodies[] = [];
  const open = () => {
    const bodies = new ResponseBodies(dataDir);
    opened.push(bodies);
    return bodies;
  };
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'gw-bodies-'))));
  afterEach(() => {
    for (const bodies of opened.splice(0)) bodies.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays the chunks kept, in order, and null for an answer it does not hold', async () => {
    const bodies = open();
    const chunks = [Buffer.from('data: {"id":"c1"}\n\n'), Buffer.from('data: [DONE]\n\n')];
    await bodies.keep(STREAM, 'req_1', chunks);
    expect(await bodies.read(STREAM, 'req_1')).toEqual(chunks);
    expect(await bodies.read(STREAM, 'req_2')).toBeNull();
    expect(await bodies.read('idempotency-org-2-0f0e', 'req_1')).toBeNull();
  });

  it('keeps the database and its -wal and -shm files readable by the owner only', async () => {
    const previous = process.umask(0o022);
    try {
      const bodies = open();
      await bodies.keep(STREAM, 'req_secret', [Buffer.from('{"key":"sk-gw-secret"}')]);
      const file = join(dataDir, RESPONSE_BODIES_FILE_NAME);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        expect(existsSync(path)).toBe(true);
        expect({ path, mode: statSync(path).mode & 0o777 }).toEqual({ path, mode: 0o600 });
      }
    } finally {
      process.umask(previous);
    }
  });

  it('is shared by replicas on one data directory: one keeps, the other replays', async () => {
    const first = open();
    const second = open();
    await first.keep(STREAM, 'req_shared', [Buffer.from('answer')]);
    expect(await second.read(STREAM, 'req_shared')).toEqual([Buffer.from('answer')]);
  });

  it('sweeps a body kept exactly the retention ago, not one kept a millisecond later', async () => {
    const bodies = open();
    const now = new Date('2026-11-28T12:00:00.000Z');
    await bodies.keep(STREAM, 'req_old', [Buffer.from('old')], new Date(now.getTime() - RETENTION_MS));
    await bodies.keep(STREAM, 'req_young', [Buffer.from('young')], new Date(now.getTime() - RETENTION_MS + 1));
    expect(await bodies.sweep(RETENTION_MS, now)).toBe(1);
    expect(await bodies.read(STREAM, 'req_old')).toBeNull();
    expect(await bodies.read(STREAM, 'req_young')).toEqual([Buffer.from('young')]);
  });

  it('reads a body an earlier version kept as a file when it has no row', async () => {
    const chunks = [Buffer.from('event: one\n\n'), Buffer.from([0, 1, 2])];
    writeLegacyFile(dataDir, STREAM, 'req_legacy', chunks, new Date());
    const bodies = open();
    expect(await bodies.read(STREAM, 'req_legacy')).toEqual(chunks);
  });

  it('sweeps earlier versions\' files past the retention with the rows, and keeps the younger ones', async () => {
    const now = new Date();
    const old = writeLegacyFile(dataDir, STREAM, 'req_file_old', [Buffer.from('a')], new Date(now.getTime() - RETENTION_MS - 1_000));
    const young = writeLegacyFile(dataDir, STREAM, 'req_file_young', [Buffer.from('b')], new Date(now.getTime() - RETENTION_MS + 10_000));
    const bodies = open();
    await bodies.keep(STREAM, 'req_row_old', [Buffer.from('c')], new Date(now.getTime() - RETENTION_MS - 1_000));
    expect(await bodies.sweep(RETENTION_MS, now)).toBe(2);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
    expect(await bodies.read(STREAM, 'req_file_young')).toEqual([Buffer.from('b')]);
    expect(await bodies.read(STREAM, 'req_row_old')).toBeNull();
  });

  it('sweeps nothing and fails nothing on a data directory that never had body files', async () => {
    expect(await open().sweep(RETENTION_MS)).toBe(0);
  });

  it('commits the keeps of one turn in one transaction, and each reads back byte for byte', async () => {
    const keeper = open();
    const reader = open();
    const answers = Array.from({ length: 200 }, (_, i) => ({
      requestId: newRequestId(),
      chunks: Array.from({ length: 1 + (i % 4) }, () => randomBytes(1 + ((i * 37) % 900))),
    }));
    await Promise.all(answers.map((answer) => keeper.keep(STREAM, answer.requestId, answer.chunks)));
    expect(keeper.commits).toBe(1);
    // As hex: jest compares buffers byte by byte, slowly.
    const hex = (chunks: Buffer[] | null) => chunks?.map((chunk) => chunk.toString('hex'));
    for (const answer of answers) expect(hex(await reader.read(STREAM, answer.requestId))).toEqual(hex(answer.chunks));
    await keeper.keep(STREAM, newRequestId(), [Buffer.from('next turn')]);
    expect(keeper.commits).toBe(2);
  });

  it('replaces the body of a second keep of the same stream and request, in one turn or the next', async () => {
    const bodies = open();
    await Promise.all([bodies.keep(STREAM, 'req_twice', [Buffer.from('first')]), bodies.keep(STREAM, 'req_twice', [Buffer.from('second')])]);
    expect(await bodies.read(STREAM, 'req_twice')).toEqual([Buffer.from('second')]);
    await bodies.keep(STREAM, 'req_twice', [Buffer.from('third')]);
    await bodies.keep('idempotency-org-2-0f0e', 'req_twice', [Buffer.from('other stream')]);
    expect(await open().read(STREAM, 'req_twice')).toEqual([Buffer.from('third')]);
    expect(await bodies.read('idempotency-org-2-0f0e', 'req_twice')).toEqual([Buffer.from('other stream')]);
    expect(countRows(dataDir, 'kept_answers')).toBe(2);
  });

  it('reads a body whose keep is queued and not committed yet (only the replica that queued it)', async () => {
    const keeper = open();
    const other = open();
    const chunks = [Buffer.from('queued'), Buffer.from([0xff, 0])];
    const kept = keeper.keep(STREAM, 'req_queued', chunks);
    const reads = Promise.all([keeper.read(STREAM, 'req_queued'), other.read(STREAM, 'req_queued')]);
    expect(keeper.commits).toBe(0);
    expect(await reads).toEqual([chunks, null]);
    await kept;
    expect(await other.read(STREAM, 'req_queued')).toEqual(chunks);
  });

  it('close() commits the keeps still queued, then refuses new ones', async () => {
    const bodies = open();
    const kept = bodies.keep(STREAM, 'req_at_close', [Buffer.from('last words')]);
    bodies.close();
    await expect(kept).resolves.toBeUndefined();
    expect(await open().read(STREAM, 'req_at_close')).toEqual([Buffer.from('last words')]);
    await expect(bodies.keep(STREAM, 'req_after_close', [Buffer.from('late')])).rejects.toThrow('kept answers: the database is closed');
  });

  it('rejects every keep of a transaction that fails, and keeps none of them', async () => {
    const bodies = open();
    const saboteur = new Database(join(dataDir, RESPONSE_BODIES_FILE_NAME));
    try {
      saboteur.exec("CREATE TRIGGER refuse_poison BEFORE INSERT ON kept_answers WHEN NEW.request_id = 'req_poison' BEGIN SELECT RAISE(ABORT, 'poisoned row'); END");
    } finally {
      saboteur.close();
    }
    const keeps = ['req_before', 'req_poison', 'req_after'].map((requestId) => bodies.keep(STREAM, requestId, [Buffer.from(requestId)]));
    for (const kept of keeps) await expect(kept).rejects.toThrow('poisoned row');
    expect(bodies.commits).toBe(0);
    expect(await bodies.read(STREAM, 'req_before')).toBeNull();
    expect(countRows(dataDir, 'kept_answers')).toBe(0);
    // The failure stays with its transaction: the next turn's keeps commit.
    await bodies.keep(STREAM, 'req_next', [Buffer.from('fine')]);
    expect(await bodies.read(STREAM, 'req_next')).toEqual([Buffer.from('fine')]);
  });

  it('reads and sweeps what the previous version kept in its kept_bodies table, dropping nothing on open', async () => {
    const now = new Date();
    writePreviousRows(dataDir, [
      { requestId: 'req_prev_old', chunks: [Buffer.from('old')], keptAt: new Date(now.getTime() - RETENTION_MS - 1_000) },
      { requestId: 'req_prev_young', chunks: [Buffer.from('young'), Buffer.from([1, 2])], keptAt: new Date(now.getTime() - RETENTION_MS + 10_000) },
    ]);
    const bodies = open();
    expect(countRows(dataDir, 'kept_bodies')).toBe(2);
    expect(await bodies.read(STREAM, 'req_prev_old')).toEqual([Buffer.from('old')]);
    expect(await bodies.read(STREAM, 'req_prev_young')).toEqual([Buffer.from('young'), Buffer.from([1, 2])]);
    await bodies.keep(STREAM, 'req_new_old', [Buffer.from('c')], new Date(now.getTime() - RETENTION_MS - 1_000));
    expect(await bodies.sweep(RETENTION_MS, now)).toBe(2);
    expect(await bodies.read(STREAM, 'req_prev_old')).toBeNull();
    expect(await bodies.read(STREAM, 'req_new_old')).toBeNull();
    expect(await bodies.read(STREAM, 'req_prev_young')).toEqual([Buffer.from('young'), Buffer.from([1, 2])]);
  });

  it('finds the previous version\'s rows when a replica still on it creates its table after this one opened', async () => {
    const bodies = open();
    expect(await bodies.read(STREAM, 'req_late_table')).toBeNull();
    writePreviousRows(dataDir, [{ requestId: 'req_late_table', chunks: [Buffer.from('from the old replica')], keptAt: new Date() }]);
    expect(await bodies.read(STREAM, 'req_late_table')).toEqual([Buffer.from('from the old replica')]);
  });
});
