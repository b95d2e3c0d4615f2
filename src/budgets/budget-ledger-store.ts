// Keeps the budget ledger's snapshot (budget-ledger-snapshot.ts) and its position in
// read-models.sqlite. Any replica's snapshot is a valid start: each is a fold of the same log up to
// its position. An unreadable one is ignored (the store is replayed instead), never fatal.
import type Database from 'better-sqlite3';
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import type { BudgetLedgerSnapshot } from './budget-ledger-snapshot';
import { SnapshotRow } from '../projections/snapshot-row';

export interface SavedLedger {
  position: string | null;
  snapshot: BudgetLedgerSnapshot;
}

export class BudgetLedgerStore {
  private readonly row: SnapshotRow;

  /** `logger`: context `projections`. */
  constructor(db: Database.Database, private readonly logger: GatewayLog = SILENT_LOG) {
    this.row = new SnapshotRow(db, 'budget_ledger_snapshot');
  }

  load(): SavedLedger | null {
    const row = this.row.load();
    if (!row) return null;
    try {
      return { position: row.position, snapshot: JSON.parse(row.state) as BudgetLedgerSnapshot };
    } catch (error) {
      this.logger.warn({ err: error }, 'budget ledger snapshot unreadable; replaying the store');
      return null;
    }
  }

  /** A failed write only costs a longer replay at the next start; it never stops the fold. */
  save(position: string | null, snapshot: BudgetLedgerSnapshot, nowMs: number): boolean {
    try {
      this.row.save(position, JSON.stringify(snapshot), nowMs);
      return true;
    } catch (error) {
      this.logger.error({ err: error }, `budget ledger snapshot not written (${(error as Error).message})`);
      return false;
    }
  }
}
