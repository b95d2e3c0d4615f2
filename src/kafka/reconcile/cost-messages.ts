// Turns a consumed gateway.cost-priced message back into what reconciliation needs.
import type { KafkaMessage } from 'kafkajs';
import type { CostPricedV1 } from '../../billing/billing.events';
import { HEADER_EVENT_ID } from '../billing-topics';
import type { CostRecord } from './cost-totals';

function headerText(message: KafkaMessage, name: string): string | null {
  const value = message.headers?.[name];
  if (value === undefined) return null;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? null : first.toString();
}

/** Throws on a message that is not a relayed CostPriced: reconciliation must not guess around it. */
export function costRecordFromMessage(message: KafkaMessage): CostRecord {
  const eventId = headerText(message, HEADER_EVENT_ID);
  if (!eventId || !message.value) throw new Error(`message at offset ${message.offset} has no ${HEADER_EVENT_ID} header or no value`);
  const data = JSON.parse(message.value.toString()) as CostPricedV1;
  return { eventId, organizationId: data.organizationId, occurredAt: data.occurredAt, costUsdMicros: data.costUsdMicros };
}
