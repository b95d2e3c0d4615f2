// Table layout of events.sqlite. The rowid is the global position: it orders events across streams (and
// across processes sharing the file). Rows are never deleted, so the next rowid (the largest plus one)
// only grows and is never reused without AUTOINCREMENT, whose sqlite_sequence row cost every commit one
// more page (docs/benchmarks-archive.md, finding 45). Stores created before keep AUTOINCREMENT; both read and
// write the same way.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../event-store.port';
import { decodeId, decodeRecordedAt, decodeStream, type StoredId } from './row-codec';
import { decodePayload } from './payload-codec';

// Column types without text affinity where row-codec.ts stores bytes or numbers. A store created before
// the compact format has TEXT columns and AUTOINCREMENT; CREATE ... IF NOT EXISTS leaves it as it is.
export const EVENTS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY,
    event_id    BLOB    NOT NULL UNIQUE,
    stream_id   BLOB    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at INTEGER NOT NULL,
    UNIQUE (stream_id, revision)
  );
  CREATE TABLE IF NOT EXISTS store_identity (
    id TEXT NOT NULL
  );
`;

/** How long a connection waits for another process's write lock before failing. */
export const BUSY_TIMEOUT_MS = 5000;

const OPEN_RETRY_MS = 50;

/**
 * Runs a connection's opening steps (journal mode, schema), retried on SQLITE_BUSY for the busy timeout:
 * SQLite answers SQLITE_BUSY at once, without the busy handler, when waiting could deadlock (two replicas
 * opening one file together), so the busy timeout alone does not cover start-up.
 */
export function openingWhileBusy<T>(db: Database.Database, open: () => T): T {
  // Busy timeout first: switching to WAL takes a lock a replica starting beside this one may hold.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return open();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, OPEN_RETRY_MS);
    }
  }
}

/** WAL with synchronous=FULL: a commit is on disk (fsynced) before the append is acknowledged. */
export function configureWriter(db: Database.Database): void {
  openingWhileBusy(db, () => openWriter(db));
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

/** A row as stored (row-codec.ts: plain or compact) or as kept in memory (plain). */
export interface EventRow {
  position: number;
  event_id: StoredId;
  stream_id: StoredId;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string | number;
}

const UNPARSED = Symbol('unparsed');

/**
 * A stored row as the port's RecordedEvent. `data` and `metadata` are parsed on first access, by
 * getters on the prototype: no in-process subscriber reads UsageMeasured's, the largest payload, and an object literal
 * with its own getter made every event a dictionary-mode object with closures of its own (finding 23).
 */
class StoredEvent implements RecordedEvent {
  readonly id: string;
  readonly type: string;
  readonly streamId: string;
  readonly revision: number;
  readonly position: string;
  readonly recordedAt: string;
  readonly #json: string;
  readonly #metadataJson: string;
  /** Read from the file, so its payload may be encoded (payload-codec.ts); rows from memory are plain. */
  readonly #fromFile: boolean;
  #data: unknown = UNPARSED;
  #metadata: Record<string, unknown> | typeof UNPARSED = UNPARSED;

  constructor(row: EventRow, fromFile: boolean) {
    this.id = decodeId(row.event_id);
    this.type = row.type;
    this.streamId = decodeStream(row.stream_id);
    this.revision = row.revision;
    this.position = String(row.position);
    this.#metadataJson = row.metadata;
    this.recordedAt = decodeRecordedAt(row.recorded_at);
    this.#json = row.data;
    this.#fromFile = fromFile;
  }

  get metadata(): Record<string, unknown> {
    if (this.#metadata === UNPARSED) this.#metadata = JSON.parse(this.#fromFile ? decodePayload(this.#metadataJson) : this.#metadataJson) as Record<string, unknown>;
    return this.#metadata;
  }

  get data(): unknown {
    if (this.#data === UNPARSED) this.#data = JSON.parse(this.#fromFile ? decodePayload(this.#json) : this.#json) as unknown;
    return this.#data;
  }
}

/** A row this process appended, kept in memory as plain text. */
export function toRecordedEvent(row: EventRow): RecordedEvent {
  return new StoredEvent(row, false);
}

/** A row read from the file, in the store's format (row-codec.ts). */
export function fromStoredRow(row: EventRow): RecordedEvent {
  return new StoredEvent(row, true);
}

/** SQLite positions are plain decimal integers; anything else is a checkpoint from another store. */
export function parsePosition(position: string): number {
  if (!/^\d{1,15}$/.test(position)) throw new Error(`not an SQLite event store position: ${position}`);
  return Number(position);
}
