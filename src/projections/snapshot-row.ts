// The one-row table a folded projection keeps its snapshot in (read-models.sqlite): the state as
// text and the store position it was folded to. Any replica's row is a valid start: each is a fold of
// the same log up to its position. Used by the rate-limit ledgers, the budget ledger and the key registry.
import type Database from 'better-sqlite3';

export interface SnapshotRowValue {
  position: string | null;
  state: string;
}

export class SnapshotRow {
  private readonly read: Database.Statement<[], SnapshotRowValue>;
  private readonly write: Database.Statement<[string | null, string, number]>;

  /** `table`: a fixed identifier of the caller's (never input). */
  constructor(db: Database.Database, table: string) {
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (
      id INTEGER PRIMARY KEY CHECK (id = 1), position TEXT, state TEXT NOT NULL, saved_at_ms INTEGER NOT NULL)`);
    this.read = db.prepare(`SELECT position, state FROM ${table} WHERE id = 1`);
    this.write = db.prepare(`INSERT INTO ${table} (id, position, state, saved_at_ms) VALUES (1, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET position = excluded.position, state = excluded.state, saved_at_ms = excluded.saved_at_ms`);
  }

  load(): SnapshotRowValue | undefined {
    return this.read.get();
  }

  /** Throws when the write fails (disk full): each caller decides what that costs it. */
  save(position: string | null, state: string, nowMs: number): void {
    this.write.run(position, state, nowMs);
  }
}
