// The daily margin read model: rows per UTC day and model, deployment or organization, integer micros
// summed exactly by SQLite, checkpointed with the page that wrote them. Caught up when read (GET
// /v1/margins), so it adds no work to a model request.
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { CheckpointedReadModel } from '../../projections/read-model-db';
import type { UtcDay } from '../../costs/domain/utc-day';
import { foldMarginPage, type MarginDelta, type MarginDimension, type Revenue } from './margin.fold';

export const MARGIN_PROJECTION = 'margins';

/** A day's sums for one value of one dimension, as stored. */
export type MarginRow = Omit<MarginDelta, 'dimension'>;

export class MarginProjection extends CheckpointedReadModel {
  private readonly addRow: Database.Statement;
  private readonly readCarried: Database.Statement<[], { request_id: string; organization_id: string; model_id: string; day: string; revenue: bigint }>;
  private readonly clearCarried: Database.Statement;
  private readonly keepCarried: Database.Statement;
  private readonly readRows: Database.Statement<[string, string, string], Record<string, unknown>>;

  constructor(db: Database.Database) {
    super(db, MARGIN_PROJECTION);
    db.exec(`
      CREATE TABLE IF NOT EXISTS margin_daily (
        day TEXT NOT NULL, dimension TEXT NOT NULL, value TEXT NOT NULL,
        revenue_usd_micros INTEGER NOT NULL, costed_revenue_usd_micros INTEGER NOT NULL, cost_of_goods_usd_micros INTEGER NOT NULL,
        requests INTEGER NOT NULL, unknown_cost_requests INTEGER NOT NULL,
        PRIMARY KEY (dimension, day, value)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS margin_carried (
        request_id TEXT PRIMARY KEY, organization_id TEXT NOT NULL, model_id TEXT NOT NULL, day TEXT NOT NULL, revenue INTEGER NOT NULL
      ) WITHOUT ROWID;`);
    this.addRow = db.prepare(`
      INSERT INTO margin_daily VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (dimension, day, value) DO UPDATE SET
        revenue_usd_micros = revenue_usd_micros + excluded.revenue_usd_micros,
        costed_revenue_usd_micros = costed_revenue_usd_micros + excluded.costed_revenue_usd_micros,
        cost_of_goods_usd_micros = cost_of_goods_usd_micros + excluded.cost_of_goods_usd_micros,
        requests = requests + excluded.requests, unknown_cost_requests = unknown_cost_requests + excluded.unknown_cost_requests`);
    this.readCarried = db.prepare('SELECT request_id, organization_id, model_id, day, revenue FROM margin_carried').safeIntegers(true) as never;
    this.clearCarried = db.prepare('DELETE FROM margin_carried');
    this.keepCarried = db.prepare('INSERT OR REPLACE INTO margin_carried VALUES (?, ?, ?, ?, ?)');
    this.readRows = db.prepare<[string, string, string], Record<string, unknown>>('SELECT * FROM margin_daily WHERE dimension = ? AND day >= ? AND day < ? ORDER BY day, value').safeIntegers(true);
  }

  protected applyFresh(events: readonly RecordedEvent[]): void {
    const carriedIn: Revenue[] = this.readCarried.all().map((r) => ({ requestId: r.request_id, organizationId: r.organization_id, modelId: r.model_id, day: r.day, revenueUsdMicros: BigInt(r.revenue) }));
    const page = foldMarginPage(events, carriedIn);
    page.deltas.forEach((d: MarginDelta) =>
      this.addRow.run(d.day, d.dimension, d.value, d.revenueUsdMicros, d.costedRevenueUsdMicros, d.costOfGoodsUsdMicros, d.requests, d.unknownCostRequests),
    );
    this.clearCarried.run();
    for (const r of page.carried) this.keepCarried.run(r.requestId, r.organizationId, r.modelId, r.day, r.revenueUsdMicros);
  }

  /** Rows of days [fromDay, toDay) of one grouping, by day then value. */
  rows(dimension: MarginDimension, fromDay: UtcDay, toDay: UtcDay): MarginRow[] {
    return this.readRows.all(dimension, fromDay, toDay).map((r) => ({
      day: String(r.day),
      value: String(r.value),
      revenueUsdMicros: BigInt(r.revenue_usd_micros as bigint),
      costedRevenueUsdMicros: BigInt(r.costed_revenue_usd_micros as bigint),
      costOfGoodsUsdMicros: BigInt(r.cost_of_goods_usd_micros as bigint),
      requests: Number(r.requests),
      unknownCostRequests: Number(r.unknown_cost_requests),
    }));
  }
}
