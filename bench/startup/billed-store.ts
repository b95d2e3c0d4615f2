// Fills a SqliteEventStore with N billed requests the way the gateway leaves them (UsageMeasured +
// CostPriced in each request's stream, priced by the gateway's own meter and price over the example
// catalog), through the store's API with many appends in flight so group commit packs each commit.
// Used by the start-up bench (bench/startup.ts) and the start-up e2e (test/platform/startup-catch-up).
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { requestStreamId } from '../../src/event-store/event-ids';
import { billingEvents, pricedShapes } from '../costs/priced-requests';
import { msSince } from '../lib/samples';

const APPENDS_IN_FLIGHT = 1000;
const SPREAD_MS = 30 * 86_400_000;

export interface BilledStore {
  requests: number;
  events: number;
  generationSeconds: number;
}

/** Appends `requests` billed requests of `organizationId` spread over the 30 days before now. */
export async function generateBilledStore(dir: string, requests: number, organizationId: string, log: (line: string) => void = () => undefined): Promise<BilledStore> {
  const shapes = pricedShapes();
  const store = await SqliteEventStore.open(dir);
  const startNs = process.hrtime.bigint();
  const firstMs = Date.now() - SPREAD_MS;
  let next = 0;
  const appender = async () => {
    for (let index = next++; index < requests; index = next++) {
      const requestId = `startup-bench-${index}`;
      const occurredAt = new Date(firstMs + Math.floor((index * SPREAD_MS) / requests)).toISOString();
      await store.append(requestStreamId(requestId), billingEvents(shapes[(index * 7) % shapes.length], { requestId, organizationId, occurredAt }));
      if ((index + 1) % 100_000 === 0) log(`  ${index + 1} billed requests appended (${(msSince(startNs) / 1000).toFixed(0)} s)`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(APPENDS_IN_FLIGHT, requests) }, appender));
  } finally {
    await store.close();
  }
  return { requests, events: requests * 2, generationSeconds: msSince(startNs) / 1000 };
}
