// Daily cost per model and per API key (the cost API's group_by=model|api_key_id extensions). A
// projection of its own, with its own checkpoint, so a store that predates it is replayed from the
// start when it first runs and its sums agree with the daily totals. Same money as cost_daily_totals:
// the billed costUsdMicros, 0 when not charged.
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { CheckpointedReadModel } from '../../projections/read-model-db';
import { foldDimensionPage, type DimensionDelta } from './cost-dimension.fold';

export const COST_DIMENSION_PROJECTION = 'cost-dimensions';
export const COST_DIMENSION_TABLES = ['cost_dimension_totals', 'cost_request_keys'];

export function createCostDimensionTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS cost_dimension_totals (
      organization_id   TEXT    NOT NULL,
      day               TEXT    NOT NULL,
      dimension         TEXT    NOT NULL,
      value             TEXT    NOT NULL,
      amount_usd_micros INTEGER NOT NULL,
      priced_requests   INTEGER NOT NULL,
      PRIMARY KEY (organization_id, dimension, day, value)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS cost_request_keys (
      request_id TEXT PRIMARY KEY,
      key_id     TEXT NOT NULL
    ) WITHOUT ROWID;
  `);
}

export class CostDimensionProjection extends CheckpointedReadModel {
  private readonly keyOf: Database.Statement<[string], { key_id: string }>;
  private readonly rememberKey: Database.Statement<[string, string]>;
  private readonly forgetKey: Database.Statement<[string]>;
  private readonly addTotal: Database.Statement<[string, string, string, string, bigint, number]>;

  constructor(db: Database.Database) {
    super(db, COST_DIMENSION_PROJECTION);
    createCostDimensionTables(db);
    this.keyOf = db.prepare('SELECT key_id FROM cost_request_keys WHERE request_id = ?');
    this.rememberKey = db.prepare('INSERT OR REPLACE INTO cost_request_keys (request_id, key_id) VALUES (?, ?)');
    this.forgetKey = db.prepare('DELETE FROM cost_request_keys WHERE request_id = ?');
    this.addTotal = db.prepare(`
      INSERT INTO cost_dimension_totals (organization_id, day, dimension, value, amount_usd_micros, priced_requests) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (organization_id, dimension, day, value) DO UPDATE SET
        amount_usd_micros = amount_usd_micros + excluded.amount_usd_micros, priced_requests = priced_requests + excluded.priced_requests`);
  }

  protected applyFresh(events: readonly RecordedEvent[]): void {
    const page = foldDimensionPage(events, (requestId) => this.keyOf.get(requestId)?.key_id);
    page.deltas.forEach((delta: DimensionDelta) =>
      this.addTotal.run(delta.organizationId, delta.day, delta.dimension, delta.value, delta.amountUsdMicros, delta.pricedRequests),
    );
    page.settledRequests.forEach((requestId) => this.forgetKey.run(requestId));
    page.pendingKeys.forEach((keyId, requestId) => this.rememberKey.run(requestId, keyId));
  }
}
