// Where running streams' progress is kept: one row per stream in `<data dir>/stream-progress.sqlite`,
// owned by the process that relays it. Rows written in one event-loop turn share one transaction, on the
// main thread: a stream's record costs one row in a commit, where a file per stream cost five thread-pool
// round trips (write, rename, unlink) and the wake-ups of each (docs/benchmarks.md, "Streams"). No fsync
// (synchronous=OFF): a killed process's commits are in the page cache, as its files were; a power loss may
// lose the last few seconds. WAL, so replicas sharing the data directory do not block each other's reads.
import type Database from 'better-sqlite3';
import { openOwnerOnlyDb } from './owner-only-db';

export const STREAM_PROGRESS_FILE_NAME = 'stream-progress.sqlite';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS stream_progress (
    owner      INTEGER NOT NULL,
    request_id TEXT    NOT NULL,
    charge     TEXT    NOT NULL,
    PRIMARY KEY (owner, request_id)
  );
`;

export interface ProgressRow {
  owner: number;
  requestId: string;
  charge: string;
}

export class StreamProgressDb {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement<[number, string, string]>;
  private readonly remove: Database.Statement<[number, string]>;
  private readonly writeBatch: (batch: [string, string | null][]) => void;
  /** Per request: its newest record, or null for "delete"; written at the end of the turn. */
  private readonly queued = new Map<string, string | null>();
  private flushScheduled = false;
  private closed = false;

  /** `onError`: a flush that failed (its records are lost; the streams' own charges are unaffected). */
  constructor(dataDir: string, private readonly owner: number = process.pid, private readonly onError: (error: unknown) => void = () => undefined) {
    this.db = openOwnerOnlyDb(dataDir, STREAM_PROGRESS_FILE_NAME, SCHEMA);
    this.upsert = this.db.prepare('INSERT OR REPLACE INTO stream_progress (owner, request_id, charge) VALUES (?, ?, ?)');
    this.remove = this.db.prepare('DELETE FROM stream_progress WHERE owner = ? AND request_id = ?');
    this.writeBatch = this.db.transaction((batch: [string, string | null][]) => {
      for (const [requestId, charge] of batch) {
        if (charge === null) this.remove.run(this.owner, requestId);
        else this.upsert.run(this.owner, requestId, charge);
      }
    });
  }

  /** The stream's newest progress, replacing any earlier one. */
  record(requestId: string, charge: string): void {
    this.enqueue(requestId, charge);
  }

  /** The stream settled: its progress is no longer needed. */
  forget(requestId: string): void {
    this.enqueue(requestId, null);
  }

  /** Every row whose owner `isGone` says has ended. */
  rowsOfGoneOwners(isGone: (owner: number) => boolean): ProgressRow[] {
    const owners = this.db.prepare<[], { owner: number }>('SELECT DISTINCT owner FROM stream_progress').all().map((row) => row.owner);
    const select = this.db.prepare<[number], { request_id: string; charge: string }>('SELECT request_id, charge FROM stream_progress WHERE owner = ?');
    return owners.filter(isGone).flatMap((owner) => select.all(owner).map((row) => ({ owner, requestId: row.request_id, charge: row.charge })));
  }

  deleteRow(owner: number, requestId: string): void {
    this.remove.run(owner, requestId);
  }

  /** Writes what is queued, then closes; later records are ignored. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.db.close();
  }

  private enqueue(requestId: string, charge: string | null): void {
    if (this.closed) return;
    this.queued.set(requestId, charge);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.closed || this.queued.size === 0) return;
    const batch = [...this.queued];
    this.queued.clear();
    try {
      this.writeBatch(batch);
    } catch (error) {
      this.onError(error);
    }
  }
}
