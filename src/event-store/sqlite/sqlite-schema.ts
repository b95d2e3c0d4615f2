// Table layout of events.sqlite. The AUTOINCREMENT rowid is the global position: it only grows and is
// never reused, so it orders events across streams (and across processes sharing the file).
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../event-store.port';

export const EVENTS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id    TEXT    NOT NULL UNIQUE,
    stream_id   TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    UNIQUE (stream_id, revision)
  );
  CREATE TABLE IF NOT EXISTS store_identity (
    id TEXT NOT NULL
  );
`;

/** How long a connection waits for another process's write lock before failing. */
export const BUSY_TIMEOUT_MS = 5000;

const OPEN_RETRY_MS = 50;

/** WAL with synchronous=FULL: a commit is on disk (fsynced) before the append is acknowledged. */
export function configureWriter(db: Database.Database): void {
  // Busy timeout first: switching to WAL takes a lock a replica starting beside this one may hold.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // SQLite answers SQLITE_BUSY at once, without the busy handler, when waiting could deadlock (two
  // replicas opening one file together), so the opening steps are retried for the same timeout.
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return openWriter(db);
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, OPEN_RETRY_MS);
    }
  }
}

function openWriter(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(EVENTS_SCHEMA);
  // The store's identity is born with the file and travels with its backups (EventStore.storeId);
  // written only when missing, so an ordinary start takes no write lock here.
  if (db.prepare('SELECT 1 FROM store_identity LIMIT 1').get() === undefined) {
    db.prepare('INSERT INTO store_identity (id) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM store_identity)').run(randomUUID());
  }
}

export interface EventRow {
  position: number;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

const UNPARSED = Symbol('unparsed');

/**
 * A stored row as the port's RecordedEvent. `data` is parsed on first access, by a getter on the
 * prototype: no in-process subscriber reads UsageMeasured's, the largest payload, and an object literal
 * with its own getter made every event a dictionary-mode object with closures of its own (finding 23).
 */
class StoredEvent implements RecordedEvent {
  readonly id: string;
  readonly type: string;
  readonly streamId: string;
  readonly revision: number;
  readonly position: string;
  readonly metadata: Record<string, unknown>;
  readonly recordedAt: string;
  readonly #json: string;
  #data: unknown = UNPARSED;

  constructor(row: EventRow) {
    this.id = row.event_id;
    this.type = row.type;
    this.streamId = row.stream_id;
    this.revision = row.revision;
    this.position = String(row.position);
    this.metadata = JSON.parse(row.metadata) as Record<string, unknown>;
    this.recordedAt = row.recorded_at;
    this.#json = row.data;
  }

  get data(): unknown {
    if (this.#data === UNPARSED) this.#data = JSON.parse(this.#json) as unknown;
    return this.#data;
  }
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return new StoredEvent(row);
}

/** SQLite positions are plain decimal integers; anything else is a checkpoint from another store. */
export function parsePosition(position: string): number {
  if (!/^\d{1,15}$/.test(position)) throw new Error(`not an SQLite event store position: ${position}`);
  return Number(position);
}
