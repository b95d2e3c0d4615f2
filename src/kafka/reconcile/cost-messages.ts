// Turns a consumed gateway.cost-priced or gateway.upstream-attempt message back into what reconciliation needs.
import type { KafkaMessage } from 'kafkajs';
import type { CostPricedV1 } from '../../billing/billing.events';
import { HEADER_EVENT_ID } from '../billing-topics';
import type { UpstreamAttemptRecordedV1 } from '../../routing/routing.events';
import { attemptRecordOf, type AttemptRecord } from './attempt-totals';
import type { CostRecord } from './cost-totals';

function headerText(message: KafkaMessage, name: string): string | null {
  const value = message.headers?.[name];
  if (value === undefined) return null;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? null : first.toString();
}

function eventIdAndPayload<T>(message: KafkaMessage): { eventId: string; data: T } {
  const eventId = headerText(message, HEADER_EVENT_ID);
  if (!eventId || !message.value) throw new Error(`message at offset ${message.offset} has no ${HEADER_EVENT_ID} header or no value`);
  return { eventId, data: JSON.parse(message.value.toString()) as T };
}

/** Throws on a message that is not a relayed CostPriced: reconciliation must not guess around it. */
export function costRecordFromMessage(message: KafkaMessage): CostRecord {
  const { eventId, data } = eventIdAndPayload<CostPricedV1>(message);
  return { eventId, organizationId: data.organizationId, occurredAt: data.occurredAt, costUsdMicros: data.costUsdMicros };
}

export function attemptRecordFromMessage(message: KafkaMessage): AttemptRecord {
  const { eventId, data } = eventIdAndPayload<UpstreamAttemptRecordedV1>(message);
  return attemptRecordOf(eventId, data);
}
