// Bytes on disk per billed request: N chat requests' appends (admission, then billing, ~50 requests
// in flight), the store closed (closing checkpoints the WAL into the database file), then the
// database file and any WAL left divided by N. The split by table and index comes from SQLite's
// dbstat virtual table (better-sqlite3 builds SQLite with SQLITE_ENABLE_DBSTAT_VTAB).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EVENTS_FILE_NAME } from '../../src/event-store/sqlite/sqlite-event-store';
import { appendBilledRequest, openFreshStore } from './gateway-appends';
import type { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';

export interface StoredObject {
  /** Table or index name. */
  name: string;
  pages: number;
  bytes: number;
  /** Bytes of record payload in those pages (the rest: headers, free space, interior pages). */
  payloadBytes: number;
}

export interface BytesPerRequestResult {
  requests: number;
  inFlight: number;
  databaseBytes: number;
  walBytes: number;
  bytesPerRequest: number;
  /** Largest first; null when the bundled SQLite has no dbstat. */
  split: StoredObject[] | null;
}

async function appendRequests(store: SqliteEventStore, requests: number, inFlight: number): Promise<void> {
  let next = 0;
  const writer = async () => {
    while (next < requests) await appendBilledRequest(store, next++);
  };
  await Promise.all(Array.from({ length: inFlight }, writer));
}

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);

function dbstatSplit(databasePath: string): StoredObject[] | null {
  const db = new Database(databasePath, { fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT name, COUNT(*) AS pages, SUM(pgsize) AS bytes, SUM(payload) AS payloadBytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
      .all() as StoredObject[];
    return rows;
  } catch {
    return null;
  } finally {
    db.close();
  }
}

export async function measureBytesPerRequest(rootDir: string, requests: number, inFlight = 50): Promise<BytesPerRequestResult> {
  const { store, dir } = await openFreshStore(rootDir, 'bytes-per-request');
  try {
    await appendRequests(store, requests, inFlight);
  } finally {
    await store.close();
  }
  const databasePath = join(dir, EVENTS_FILE_NAME);
  const databaseBytes = sizeOf(databasePath);
  const walBytes = sizeOf(`${databasePath}-wal`);
  return { requests, inFlight, databaseBytes, walBytes, bytesPerRequest: (databaseBytes + walBytes) / requests, split: dbstatSplit(databasePath) };
}
