// Folds CostPriced events into the daily cost read model, a page at a time: each bucket row is written
// once per page, and rows and checkpoint share one transaction.
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { CostPricedV1 } from '../../billing/billing.events';
import { CheckpointStore, checkpointedPages } from '../read-model-db';
import type { Projection } from '../projection-runner';
import { addQuantities, dailyCostDelta, mergeDailyDeltas, type DailyBucketDelta } from './daily-cost.fold';
import { createCostTables } from './cost-tables';

export const DAILY_COST_PROJECTION = 'daily-cost';

export class DailyCostProjection implements Projection {
  readonly name = DAILY_COST_PROJECTION;
  private readonly checkpoints: CheckpointStore;
  private readonly applyPages: (events: readonly RecordedEvent[]) => void;

  constructor(db: Database.Database) {
    createCostTables(db);
    this.checkpoints = new CheckpointStore(db);
    const addToBuckets = bucketWriter(db);
    this.applyPages = checkpointedPages(db, this.name, (events) => {
      const deltas = events.filter((event) => event.type === 'CostPriced').map((event) => dailyCostDelta(event.data as CostPricedV1));
      mergeDailyDeltas(deltas).forEach(addToBuckets);
    });
  }

  checkpoint(): string | null {
    return this.checkpoints.get(this.name);
  }

  apply(event: RecordedEvent): void {
    this.applyPage([event]);
  }

  /** A whole page in one transaction: rows and the checkpoint of its last event. */
  applyPage(events: readonly RecordedEvent[]): void {
    this.applyPages(events);
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
