// Folds CostPriced events into the daily cost read model, a page at a time: each bucket row is written
// once per page, and rows and checkpoint share one transaction.
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { CheckpointedReadModel } from '../../projections/read-model-db';
import { addQuantities, dailyCostDeltaOfEvent, mergeDailyDeltas, type DailyBucketDelta } from './daily-cost.fold';
import { createCostTables } from './cost-tables';

export const DAILY_COST_PROJECTION = 'daily-cost';

export class DailyCostProjection extends CheckpointedReadModel {
  private readonly addToBuckets: (delta: DailyBucketDelta) => void;

  constructor(db: Database.Database) {
    super(db, DAILY_COST_PROJECTION);
    createCostTables(db);
    this.addToBuckets = bucketWriter(db);
  }

  protected applyFresh(events: readonly RecordedEvent[]): void {
    const deltas = events.filter((event) => event.type === 'CostPriced').map(dailyCostDeltaOfEvent);
    mergeDailyDeltas(deltas).forEach(this.addToBuckets);
  }
}

function bucketWriter(db: Database.Database): (delta: DailyBucketDelta) => void {
  const storedQuantity = db.prepare<[string, string, string], { quantity: string }>(
    'SELECT quantity FROM cost_line_items WHERE organization_id = ? AND day = ? AND line_item = ?',
  );
  const upsertLineItem = db.prepare(`
    INSERT INTO cost_line_items (organization_id, day, line_item, amount_usd_micros, quantity) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (organization_id, day, line_item) DO UPDATE SET
      amount_usd_micros = amount_usd_micros + excluded.amount_usd_micros, quantity = excluded.quantity`);
  const upsertTotal = db.prepare(`
    INSERT INTO cost_daily_totals (organization_id, day, amount_usd_micros, priced_requests) VALUES (?, ?, ?, ?)
    ON CONFLICT (organization_id, day) DO UPDATE SET
      amount_usd_micros = amount_usd_micros + excluded.amount_usd_micros, priced_requests = priced_requests + excluded.priced_requests`);

  return ({ organizationId, day, totalUsdMicros, pricedRequests, lineItems }) => {
    upsertTotal.run(organizationId, day, totalUsdMicros, pricedRequests);
    for (const { lineItem, amountUsdMicros, quantity } of lineItems) {
      const stored = storedQuantity.get(organizationId, day, lineItem)?.quantity;
      upsertLineItem.run(organizationId, day, lineItem, amountUsdMicros, addQuantities(stored, quantity));
    }
  };
}
