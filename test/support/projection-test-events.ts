// Builders of realistic gateway events for projection and ledger tests.
import type { CostPricedV1, PricedLineItem } from '../../src/billing/billing.events';
import type { ModelStatusChangedV1 } from '../../src/models/model-status/model-status.events';
import type { RequestAdmittedV1 } from '../../src/rate-limits/rate-limit.events';
import { EVENT_SCHEMA_VERSION } from '../../src/event-store/gateway-event-types';
import { eventIdFor, requestStreamId } from '../../src/event-store/event-ids';
import type { EventStore } from '../../src/event-store/event-store.port';

export function lineItem(name: string, amountUsdMicros: number, quantity: string): PricedLineItem {
  return { name, side: 'input', modality: 'text', unit: 'tokens', quantity, unit_price_usd: '0', amount_usd_micros: String(amountUsdMicros), exact_usd_micros: String(amountUsdMicros) };
}

export function costPriced(requestId: string, organizationId: string, occurredAt: string, lineItems: PricedLineItem[]): CostPricedV1 {
  const total = lineItems.reduce((sum, item) => sum + BigInt(item.amount_usd_micros), 0n);
  return {
    requestId,
    organizationId,
    model: 'gpt-mini',
    endpoint: '/v1/chat/completions',
    costUsdMicros: Number(total),
    lineItems,
    priceBookVersion: 'test',
    occurredAt,
  };
}

export async function appendCostPriced(store: EventStore, event: CostPricedV1): Promise<void> {
  await store.append(requestStreamId(event.requestId), [
    { id: eventIdFor(event.requestId, 'CostPriced'), type: 'CostPriced', data: event, metadata: { schemaVersion: EVENT_SCHEMA_VERSION } },
  ]);
}

export async function appendRequestAdmitted(store: EventStore, event: RequestAdmittedV1): Promise<void> {
  await store.append(requestStreamId(event.requestId), [
    { id: eventIdFor(event.requestId, 'RequestAdmitted'), type: 'RequestAdmitted', data: event, metadata: { schemaVersion: EVENT_SCHEMA_VERSION } },
  ]);
}

export async function appendModelStatus(store: EventStore, event: ModelStatusChangedV1): Promise<void> {
  await store.append(`model-status-${event.model}`, [
    { id: eventIdFor(`${event.model}@${event.observedAt}`, 'ModelStatusChanged'), type: 'ModelStatusChanged', data: event, metadata: { schemaVersion: EVENT_SCHEMA_VERSION } },
  ]);
}
