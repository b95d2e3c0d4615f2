// Keeps the budget ledger's snapshot (budget-ledger-snapshot.ts) and its position in
// read-models.sqlite. Any replica's snapshot is a valid start: each is a fold of the same log up to
// its position. An unreadable one is ignored (the store is replayed instead), never fatal.
import type Database from 'better-sqlite3';
import { processLogger } from '../observability/logging/process-logger';
import type { BudgetLedgerSnapshot } from './budget-ledger-snapshot';

export interface SavedLedger {
  position: string | null;
  snapshot: BudgetLedgerSnapshot;
}

export class BudgetLedgerStore {
  private readonly read: Database.Statement<[], { position: string | null; state: string }>;
  private readonly write: Database.Statement<[string | null, string, number]>;

  constructor(db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS budget_ledger_snapshot (
      id INTEGER PRIMARY KEY CHECK (id = 1), position TEXT, state TEXT NOT NULL, saved_at_ms INTEGER NOT NULL)`);
    this.read = db.prepare('SELECT position, state FROM budget_ledger_snapshot WHERE id = 1');
    this.write = db.prepare(`INSERT INTO budget_ledger_snapshot (id, position, state, saved_at_ms) VALUES (1, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET position = excluded.position, state = excluded.state, saved_at_ms = excluded.saved_at_ms`);
  }

  load(): SavedLedger | null {
    const row = this.read.get();
    if (!row) return null;
    try {
      return { position: row.position, snapshot: JSON.parse(row.state) as BudgetLedgerSnapshot };
    } catch (error) {
      processLogger().warn({ context: 'projections', err: error }, 'budget ledger snapshot unreadable; replaying the store');
      return null;
    }
  }

  /** A failed write only costs a longer replay at the next start; it never stops the fold. */
  save(position: string | null, snapshot: BudgetLedgerSnapshot, nowMs: number): boolean {
    try {
      this.write.run(position, JSON.stringify(snapshot), nowMs);
      return true;
    } catch (error) {
      processLogger().error({ context: 'projections', err: error }, `budget ledger snapshot not written (${(error as Error).message})`);
      return false;
    }
  }
}
