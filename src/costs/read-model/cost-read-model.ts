// Queries over the daily cost read model: cost pages (per line item or per day) and the ledger check.
import type Database from 'better-sqlite3';
import type { UtcDay } from '../domain/utc-day';
import type { CostRow } from '../domain/cost-rows';
import { CheckpointStore } from '../../projections/read-model-db';
import { createCostTables } from './cost-tables';
import { DAILY_COST_PROJECTION } from './daily-cost.projection';
import { UNKNOWN_KEY, type CostDimension } from './cost-dimension.fold';
import type { CostGrouping } from '../domain/cost-query';

export interface DailyTotal {
  organizationId: string;
  day: UtcDay;
  amountUsdMicros: bigint;
}

export interface DailyTotalsSnapshot {
  /** Position of the last event reflected in `totals`. */
  checkpoint: string | null;
  totals: DailyTotal[];
}

export class CostReadModel {
  private readonly lineItemRows: Database.Statement<[string, string, string], CostRow>;
  private readonly totalRows: Database.Statement<[string, string, string], CostRow>;
  private dimensionStatement: Database.Statement<[string, CostDimension, string, string], CostRow> | null = null;
  private readonly allTotals: Database.Statement<[], DailyTotal>;
  private readonly checkpoints: CheckpointStore;
  private readonly snapshotInTransaction: () => DailyTotalsSnapshot;

  constructor(private readonly db: Database.Database) {
    createCostTables(db);
    this.checkpoints = new CheckpointStore(db);
    this.lineItemRows = db
      .prepare(`SELECT day, line_item AS "group", amount_usd_micros AS amountUsdMicros FROM cost_line_items
                WHERE organization_id = ? AND day >= ? AND day < ? ORDER BY day, line_item`)
      .safeIntegers(true) as Database.Statement<[string, string, string], CostRow>;
    this.totalRows = db
      .prepare(`SELECT day, NULL AS "group", amount_usd_micros AS amountUsdMicros FROM cost_daily_totals
                WHERE organization_id = ? AND day >= ? AND day < ? ORDER BY day`)
      .safeIntegers(true) as Database.Statement<[string, string, string], CostRow>;
    this.allTotals = db
      .prepare(`SELECT organization_id AS organizationId, day, amount_usd_micros AS amountUsdMicros FROM cost_daily_totals
                ORDER BY organization_id, day`)
      .safeIntegers(true) as Database.Statement<[], DailyTotal>;
    this.snapshotInTransaction = db.transaction(() => ({
      checkpoint: this.checkpoints.get(DAILY_COST_PROJECTION),
      totals: this.allTotals.all(),
    }));
  }

  /** Rows of days in [fromDay, toDay): one per group of the day, or one total per day; ordered by day then group. */
  rows(organizationId: string, fromDay: UtcDay, toDay: UtcDay, groupBy: CostGrouping | null): CostRow[] {
    if (groupBy === 'model' || groupBy === 'api_key_id') return this.dimensionRows().all(organizationId, groupBy, fromDay, toDay);
    return (groupBy === 'line_item' ? this.lineItemRows : this.totalRows).all(organizationId, fromDay, toDay);
  }

  /** Prepared on first use: the tables are the dimension projection's, absent from a ledger check's read-only copy. */
  private dimensionRows(): Database.Statement<[string, CostDimension, string, string], CostRow> {
    this.dimensionStatement ??= this.db
      .prepare(`SELECT day, CASE value WHEN '${UNKNOWN_KEY}' THEN NULL ELSE value END AS "group", amount_usd_micros AS amountUsdMicros
                FROM cost_dimension_totals WHERE organization_id = ? AND dimension = ? AND day >= ? AND day < ? ORDER BY day, value`)
      .safeIntegers(true) as Database.Statement<[string, CostDimension, string, string], CostRow>;
    return this.dimensionStatement;
  }

  /** Every organization's daily totals and the checkpoint they reflect, read in one transaction. */
  dailyTotalsSnapshot(): DailyTotalsSnapshot {
    return this.snapshotInTransaction();
  }
}
