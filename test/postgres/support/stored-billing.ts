// What the replicas recorded in the shared PostgreSQL store, per request and per organization: the
// CostPriced events of each request id, the cost charged and the admissions of each organization, and the
// events the Kafka relay publishes.
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import type { StoredRelayedEvent } from './relayed-once';

export interface StoredBilling {
  costPricedPerRequest: Map<string, number>;
  spentMicros(organizationId: string): bigint;
  admitted(organizationId: string): number;
  /** The stored events of one type the Kafka relay publishes, in store order. */
  relayed(type: string): StoredRelayedEvent[];
  eventCount: number;
}

export async function readStoredBilling(url: string): Promise<StoredBilling> {
  const store = await PostgresEventStore.connect(url);
  const events: RecordedEvent[] = [];
  try {
    for (let after: string | null = null; ; ) {
      const page = await store.readAll({ after, maxCount: 5_000 });
      if (page.length === 0) break;
      events.push(...page);
      after = page[page.length - 1].position;
    }
  } finally {
    await store.close();
  }
  const costPricedPerRequest = new Map<string, number>();
  const costs = events.filter((e) => e.type === 'CostPriced').map((e) => e.data as { requestId: string; organizationId: string; costUsdMicros: number | null });
  for (const cost of costs) costPricedPerRequest.set(cost.requestId, (costPricedPerRequest.get(cost.requestId) ?? 0) + 1);
  const ofOrganization = (organizationId: string) => (e: { organizationId?: string }) => e.organizationId === organizationId;
  return {
    costPricedPerRequest,
    spentMicros: (organizationId) => costs.filter(ofOrganization(organizationId)).reduce((sum, cost) => sum + BigInt(cost.costUsdMicros ?? 0), 0n),
    admitted: (organizationId) => events.filter((e) => e.type === 'RequestAdmitted' && ofOrganization(organizationId)(e.data as { organizationId?: string })).length,
    relayed: (type) => events.filter((e) => e.type === type).map((e) => ({ id: e.id, organizationId: (e.data as { organizationId: string }).organizationId })),
    eventCount: events.length,
  };
}
