// What the relay publishes: topics per event type and schema version, keys and headers (docs/kafka.md).
import type { RecordedEvent } from '../event-store/event-store.port';
import { EVENT_SCHEMA_VERSION, type GatewayEventType } from '../event-store/gateway-event-types';
import type { RoutingEventType } from '../routing/routing.events';

export const RELAYED_EVENT_TYPES = ['UsageMeasured', 'CostPriced', 'UsageDisputed', 'BudgetThresholdCrossed', 'UpstreamAttemptRecorded'] as const satisfies readonly (GatewayEventType | RoutingEventType)[];
export type RelayedEventType = (typeof RELAYED_EVENT_TYPES)[number];

const TOPIC_STEMS: Record<RelayedEventType, string> = {
  UsageMeasured: 'gateway.usage-measured',
  CostPriced: 'gateway.cost-priced',
  // Finance sees every request whose upstream report the gateway did not bill as sent.
  UsageDisputed: 'gateway.usage-disputed',
  // Alerting and finance: a key or an organization reached 50, 80 or 100% of its spend limit.
  BudgetThresholdCrossed: 'gateway.budget-threshold',
  // Finance and operations: every upstream attempt, its deployment and the cost of goods (docs/routing.md).
  UpstreamAttemptRecorded: 'gateway.upstream-attempt',
};

export const HEADER_EVENT_ID = 'event-id';
export const HEADER_EVENT_TYPE = 'event-type';
export const HEADER_SCHEMA_VERSION = 'schema-version';
export const HEADER_CONTENT_TYPE = 'content-type';

/**
 * A breaking payload change gets a new topic, so consumers of v1 never see v2 payloads. The prefix
 * (KAFKA_TOPIC_PREFIX, e.g. `staging.`) lets several gateways share one cluster.
 */
export function topicFor(type: RelayedEventType, schemaVersion: number = EVENT_SCHEMA_VERSION, prefix = ''): string {
  return `${prefix}${TOPIC_STEMS[type]}.v${schemaVersion}`;
}

export const USAGE_MEASURED_TOPIC = topicFor('UsageMeasured');
export const COST_PRICED_TOPIC = topicFor('CostPriced');
export const USAGE_DISPUTED_TOPIC = topicFor('UsageDisputed');
export const BUDGET_THRESHOLD_TOPIC = topicFor('BudgetThresholdCrossed');
export const UPSTREAM_ATTEMPT_TOPIC = topicFor('UpstreamAttemptRecorded');

export interface OutgoingMessage {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

export function isRelayed(type: string): type is RelayedEventType {
  return (RELAYED_EVENT_TYPES as readonly string[]).includes(type);
}

function schemaVersionOf(event: RecordedEvent): number {
  const declared = event.metadata?.schemaVersion;
  return typeof declared === 'number' && Number.isInteger(declared) ? declared : EVENT_SCHEMA_VERSION;
}

function organizationIdOf(event: RecordedEvent): string {
  const organizationId = (event.data as { organizationId?: unknown } | null)?.organizationId;
  if (typeof organizationId !== 'string' || organizationId === '') {
    throw new Error(`event ${event.id} (${event.type}) has no organizationId to key its message by`);
  }
  return organizationId;
}

/** The message for a relayed event, or null for event types that stay inside the gateway. */
export function toOutgoingMessage(event: RecordedEvent, topicPrefix = ''): OutgoingMessage | null {
  if (!isRelayed(event.type)) return null;
  const schemaVersion = schemaVersionOf(event);
  return {
    topic: topicFor(event.type, schemaVersion, topicPrefix),
    // Keyed by organization: one organization's events stay in one partition, in store order.
    key: organizationIdOf(event),
    value: JSON.stringify(event.data),
    headers: {
      [HEADER_EVENT_ID]: event.id,
      [HEADER_EVENT_TYPE]: event.type,
      [HEADER_SCHEMA_VERSION]: String(schemaVersion),
      [HEADER_CONTENT_TYPE]: 'application/json',
    },
  };
}
