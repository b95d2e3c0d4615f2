// The events table as stores were created before the compact row format (docs/benchmarks-archive.md, finding
// 45): text in every column and AUTOINCREMENT. The gateway never creates it any more; it still opens
// and writes such stores (row-codec.ts picks the format from the table). Kept so the tests can prove
// that, and so `BENCH_STORE_ROWS=plain` can measure the old write path beside the new one.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EVENTS_FILE_NAME } from './sqlite-event-store';

export const PLAIN_ROWS_SCHEMA = `
  CREATE TABLE events (
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
`;

/** Creates `<dir>/events.sqlite` with the plain-rows table, empty; the store opens it as it is. */
export function createPlainRowsStore(dir: string): string {
  const path = join(dir, EVENTS_FILE_NAME);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(PLAIN_ROWS_SCHEMA);
  } finally {
    db.close();
  }
  return path;
}
