// Reads a stopped gateway's data directory back: how many UsageMeasured and CostPriced events each
// request has, and whether the daily cost read model agrees with the events (the ledger check).
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { openReadModelDb } from '../../src/projections/read-model-db';
import { CostReadModel } from '../../src/costs/read-model/cost-read-model';
import { checkLedger, type LedgerCheckResult } from '../../src/costs/read-model/ledger-check';

export interface BilledRequests {
  /** Events per request id. */
  counts: Map<string, { usage: number; cost: number }>;
  ledger: LedgerCheckResult;
}

export async function readBilledRequests(dataDir: string): Promise<BilledRequests> {
  const store = await SqliteEventStore.open(dataDir);
  const counts = new Map<string, { usage: number; cost: number }>();
  for (let after: string | null = null; ; ) {
    const page = await store.readAll({ after, maxCount: 1000 });
    if (page.length === 0) break;
    for (const event of page) {
      const id = (event.data as { requestId?: string }).requestId;
      if (!id || (event.type !== 'UsageMeasured' && event.type !== 'CostPriced')) continue;
      const entry = counts.get(id) ?? { usage: 0, cost: 0 };
      if (event.type === 'UsageMeasured') entry.usage++;
      else entry.cost++;
      counts.set(id, entry);
    }
    after = page[page.length - 1].position;
  }
  const db = openReadModelDb(dataDir);
  const ledger = await checkLedger(store, new CostReadModel(db));
  db.close();
  await store.close();
  return { counts, ledger };
}
