// Tables of the daily cost read model. Amounts are INTEGER micros (64-bit, summed exactly by SQLite);
// quantities are exact decimal text summed with BigDecimal.
import type Database from 'better-sqlite3';

export const COST_TABLES = ['cost_line_items', 'cost_daily_totals'];

export function createCostTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS cost_line_items (
      organization_id   TEXT    NOT NULL,
      day               TEXT    NOT NULL,
      line_item         TEXT    NOT NULL,
      amount_usd_micros INTEGER NOT NULL,
      quantity          TEXT    NOT NULL,
      PRIMARY KEY (organization_id, day, line_item)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS cost_daily_totals (
      organization_id   TEXT    NOT NULL,
      day               TEXT    NOT NULL,
      amount_usd_micros INTEGER NOT NULL,
      priced_requests   INTEGER NOT NULL,
      PRIMARY KEY (organization_id, day)
    ) WITHOUT ROWID;
  `);
}
