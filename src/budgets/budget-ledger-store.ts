// Keeps the budget ledger's snapshot (budget-ledger-snapshot.ts) and its position in
// read-models.sqlite. Any replica's snapshot is a valid start: each is a fold of the same log up to
// its position. An unreadable one is ignored (the store is replayed instead), never fatal.
import type Database from 'better-sqlite3';
import { processLogger } from '../observability/logging/process-logger';
import type { BudgetLedgerSnapshot } from './budget-ledger-snapshot';
import { SnapshotRow } from '../projections/snapshot-row';

export interface SavedLedger {
  position: string | null;
  snapshot: BudgetLedgerSnapshot;
}

export class BudgetLedgerStore {
  private readonly row: SnapshotRow;

  constructor(db: Database.Database) {
    this.row = new SnapshotRow(db, 'budget_ledger_snapshot');
  }

  load(): SavedLedger | null {
    const row = this.row.load();
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
      this.row.save(position, JSON.stringify(snapshot), nowMs);
      return true;
    } catch (error) {
      processLogger().error({ context: 'projections', err: error }, `budget ledger snapshot not written (${(error as Error).message})`);
      return false;
    }
  }
}
