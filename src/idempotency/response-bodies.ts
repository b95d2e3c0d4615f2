// The bytes of kept answers, outside the event store: SQLite and PostgreSQL stores never delete an
// event, and a recorded body must be forgotten after the retention. One row per answer in
// `<data dir>/idempotency-responses.sqlite`, keyed by a hash of the key's stream and the request (never
// the raw key); the IdempotentResponseRecorded event holds the status, size and chunk count. Replicas
// sharing one data directory (SQLite) share the database; replicas with a directory each (PostgreSQL)
// replay only what they recorded themselves, elsewhere the replay is 409 `idempotent_response_not_kept`.
// One row write on the main thread costs microseconds, against four threadpool round trips for the
// file per answer that earlier versions wrote (docs/idempotency.md has the figures).
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { BUSY_TIMEOUT_MS } from '../event-store/sqlite/sqlite-schema';
import { decodeChunks, encodeChunks } from './chunk-codec';
import { LegacyBodyFiles } from './legacy-body-files';

export const RESPONSE_BODIES_FILE_NAME = 'idempotency-responses.sqlite';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS kept_bodies (
    stream_hash TEXT    NOT NULL,
    request_id  TEXT    NOT NULL,
    chunks      BLOB    NOT NULL,
    kept_at     INTEGER NOT NULL,
    PRIMARY KEY (stream_hash, request_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS kept_bodies_by_age ON kept_bodies (kept_at);
`;

export class ResponseBodies {
  private readonly db: Database.Database;
  private readonly legacy: LegacyBodyFiles;
  private readonly insert: Database.Statement<[string, string, Buffer, number]>;
  private readonly select: Database.Statement<[string, string], { chunks: Buffer }>;
  private readonly deleteOlder: Database.Statement<[number]>;

  constructor(dataDir: string) {
    this.db = openBodiesDb(dataDir);
    this.legacy = new LegacyBodyFiles(dataDir);
    this.insert = this.db.prepare('INSERT OR REPLACE INTO kept_bodies (stream_hash, request_id, chunks, kept_at) VALUES (?, ?, ?, ?)');
    this.select = this.db.prepare('SELECT chunks FROM kept_bodies WHERE stream_hash = ? AND request_id = ?');
    this.deleteOlder = this.db.prepare('DELETE FROM kept_bodies WHERE kept_at <= ?');
  }

  /** Written before the event that names it (not synced: a body lost to a crash replays as not kept). */
  async keep(streamId: string, requestId: string, chunks: readonly Buffer[], now: Date = new Date()): Promise<void> {
    this.insert.run(streamHash(streamId), requestId, encodeChunks(chunks), now.getTime());
  }

  /** The chunks as they were sent, or null when the body is gone (swept, or kept by another replica). */
  async read(streamId: string, requestId: string): Promise<Buffer[] | null> {
    const hash = streamHash(streamId);
    const row = this.select.get(hash, requestId);
    // A body an earlier version kept as a file, until the sweeper deletes it.
    return row ? decodeChunks(row.chunks) : this.legacy.read(hash, requestId);
  }

  /** Deletes bodies kept longer ago than the retention (rows and earlier versions' files); returns how many. */
  async sweep(retentionMs: number, now: Date = new Date()): Promise<number> {
    const rows = this.deleteOlder.run(now.getTime() - retentionMs).changes;
    return rows + (await this.legacy.sweep(retentionMs, now));
  }

  close(): void {
    this.db.close();
  }
}

function streamHash(streamId: string): string {
  return createHash('sha256').update(streamId).digest('hex');
}

/**
 * Owner only: a kept POST /v1/keys answer holds the issued key's plain secret until it is swept. The file
 * is created 0600 before SQLite opens it, and SQLite gives its -wal and -shm files the database's mode.
 * synchronous=OFF: nothing here is worth an fsync (a body lost to a crash replays as 409 not kept), and
 * WAL keeps readers on other replicas from blocking a write.
 */
function openBodiesDb(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, RESPONSE_BODIES_FILE_NAME);
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const db = new Database(file);
  // The busy timeout first: switching to WAL takes a lock a replica starting beside this one may hold.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.exec(SCHEMA);
  return db;
}
