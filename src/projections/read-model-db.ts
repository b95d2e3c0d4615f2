// read-models.sqlite: every projection's tables plus their checkpoints. A projection writes its rows and
// its checkpoint in one transaction, so synchronous=NORMAL is enough: a power loss can only drop the
// newest transactions whole (rows and checkpoint together), and they are simply projected again.
import Database from 'better-sqlite3';
import { comparePositions, type RecordedEvent } from '../event-store/event-store.port';
import { openingWhileBusy } from '../event-store/sqlite/sqlite-schema';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Projection } from './projection-runner';

export const READ_MODELS_FILE_NAME = 'read-models.sqlite';

const CHECKPOINTS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS projection_checkpoints (
    projection TEXT PRIMARY KEY,
    position   TEXT NOT NULL
  ) WITHOUT ROWID;
`;

export function openReadModelDb(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, READ_MODELS_FILE_NAME));
  // A replica starting beside this one on the same data directory may hold the lock for a moment.
  openingWhileBusy(db, () => {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(CHECKPOINTS_SCHEMA);
  });
  return db;
}

export class CheckpointStore {
  private readonly select: Database.Statement<[string], { position: string }>;
  private readonly upsert: Database.Statement<[string, string]>;

  constructor(db: Database.Database) {
    db.exec(CHECKPOINTS_SCHEMA);
    this.select = db.prepare('SELECT position FROM projection_checkpoints WHERE projection = ?');
    this.upsert = db.prepare(
      'INSERT INTO projection_checkpoints (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET position = excluded.position',
    );
  }

  get(projection: string): string | null {
    return this.select.get(projection)?.position ?? null;
  }

  set(projection: string, position: string): void {
    this.upsert.run(projection, position);
  }
}

/**
 * A read model in read-models.sqlite: each page's events after the stored checkpoint go through
 * `applyFresh` together, and the page's last position becomes the checkpoint, all in one transaction.
 */
export abstract class CheckpointedReadModel implements Projection {
  private readonly checkpoints: CheckpointStore;
  private readonly applyInTransaction: (events: readonly RecordedEvent[]) => void;

  protected constructor(db: Database.Database, readonly name: string) {
    this.checkpoints = new CheckpointStore(db);
    const transaction = db.transaction((events: readonly RecordedEvent[]) => {
      const checkpoint = this.checkpoints.get(name);
      const fresh = events.filter((event) => checkpoint === null || comparePositions(event.position, checkpoint) > 0);
      if (fresh.length === 0) return;
      this.applyFresh(fresh);
      this.checkpoints.set(name, fresh[fresh.length - 1].position);
    });
    this.applyInTransaction = (events) => transaction.immediate(events);
  }

  /** Folds events newer than the checkpoint into the model's rows (inside the page's transaction). */
  protected abstract applyFresh(events: readonly RecordedEvent[]): void;

  checkpoint(): string | null {
    return this.checkpoints.get(this.name);
  }

  apply(event: RecordedEvent): void {
    this.applyPage([event]);
  }

  /** A whole page in one transaction: rows and the checkpoint of its last event. */
  applyPage(events: readonly RecordedEvent[]): void {
    this.applyInTransaction(events);
  }
}

/** Every row of the given tables in a fixed order, one JSON array per line: equal dumps, equal models. */
export function dumpTables(db: Database.Database, tables: string[]): string {
  const lines: string[] = [];
  for (const table of tables) {
    const columns = (db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name);
    const rows = db.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${columns.join(', ')}`).raw().all();
    lines.push(`# ${table} (${columns.join(', ')})`, ...rows.map((row) => JSON.stringify(row)));
  }
  return lines.join('\n');
}
