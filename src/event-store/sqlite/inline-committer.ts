// The main thread's own write connection, for the commits InlineCommitPolicy allows there. It commits
// through the same batch appender as the worker (same statements, same row format, same outcomes),
// with synchronous=FULL: an append it acknowledges is on disk. It never waits: busy_timeout is 0, so
// when another process holds the write lock the commit fails at once and the worker takes the appends.
// It never checkpoints either (a checkpoint writes and fsyncs the database file, milliseconds on the
// event loop): every CHECKPOINT_EVERY inline commits it asks the worker to checkpoint instead.
import Database from 'better-sqlite3';
import { configureWriter } from './sqlite-schema';
import { createBatchAppender, type BatchAppender } from './append-batch';
import type { AppendOutcome, AppendRequest } from './append-protocol';

/** Inline commits between two checkpoints asked of the worker: about 3 WAL pages each, so under
 * SQLite's own 1,000-page trigger. */
export const CHECKPOINT_EVERY = 256;

export interface InlineCommit {
  outcomes: AppendOutcome[];
  recordedAt: string;
  durationMs: number;
}

export class InlineCommitter {
  private commitsSinceCheckpoint = 0;

  private constructor(private readonly db: Database.Database, private readonly appendBatch: BatchAppender) {}

  static open(databasePath: string): InlineCommitter {
    const db = new Database(databasePath);
    try {
      configureWriter(db);
      db.pragma('busy_timeout = 0');
      db.pragma('wal_autocheckpoint = 0');
      return new InlineCommitter(db, createBatchAppender(db));
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Commits `requests` together; null when nothing was committed (the write lock was held, or any
   * other failure of the transaction itself), so the worker must take them. */
  commit(requests: AppendRequest[]): InlineCommit | null {
    const recordedAt = new Date().toISOString();
    const startedAt = performance.now();
    let outcomes: AppendOutcome[];
    try {
      outcomes = this.appendBatch(requests, recordedAt);
    } catch {
      return null;
    }
    this.commitsSinceCheckpoint += 1;
    return { outcomes, recordedAt, durationMs: performance.now() - startedAt };
  }

  /** True once per CHECKPOINT_EVERY inline commits: time to ask the worker for a checkpoint. */
  takeCheckpointDue(): boolean {
    if (this.commitsSinceCheckpoint < CHECKPOINT_EVERY) return false;
    this.commitsSinceCheckpoint = 0;
    return true;
  }

  close(): void {
    this.db.close();
  }
}
