// The idempotency capability's own SQLite files beside the event store (kept answers, streams' progress):
// owner only, created 0600 before SQLite opens them (SQLite gives their -wal and -shm files the database's
// mode); WAL, so replicas sharing the data directory do not block each other's reads; synchronous=OFF,
// since nothing in them is worth an fsync (a killed process's commits are in the page cache; a power loss
// loses the last few seconds, each file's header says what that costs).
import Database from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { openingWhileBusy } from '../event-store/sqlite/sqlite-schema';

export function openOwnerOnlyDb(dataDir: string, fileName: string, schema: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, fileName);
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const db = new Database(file);
  // A replica starting beside this one on the same data directory may hold the lock for a moment.
  openingWhileBusy(db, () => {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.exec(schema);
  });
  return db;
}
