// Rebuilds the daily cost read model from the whole store into a fresh read-models.sqlite, the way
// an operator would after deleting it (DailyCostProjection through catchUpProjection), and checks
// that every priced request landed in a bucket.
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { openReadModelDb } from '../../src/projections/read-model-db';
import { DailyCostProjection } from '../../src/costs/read-model/daily-cost.projection';
import { catchUpProjection } from '../../src/projections/projection-runner';
import { msSince } from '../lib/samples';

export interface RebuildResult {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  pricedRequestsInBuckets: number;
}

export async function rebuildCostProjection(dataDir: string): Promise<RebuildResult> {
  const store = await SqliteEventStore.open(dataDir);
  const db = openReadModelDb(dataDir);
  try {
    const startNs = process.hrtime.bigint();
    const events = await catchUpProjection(store, new DailyCostProjection(db));
    const seconds = msSince(startNs) / 1000;
    const { priced } = db.prepare('SELECT COALESCE(SUM(priced_requests), 0) AS priced FROM cost_daily_totals').get() as { priced: number };
    return { events, seconds, eventsPerSecond: events / seconds, pricedRequestsInBuckets: priced };
  } finally {
    db.close();
    await store.close();
  }
}
