// The streams the gateway writes, by name prefix. $all reads ask the server for these only, so another
// application's events (and the database's own) never reach the rate limits, costs or Kafka.
// gateway-streams.spec.ts checks every writer's stream name against this list.
import { REQUEST_STREAM_PREFIX } from '../event-ids';

export const GATEWAY_STREAM_PREFIXES: readonly string[] = [
  REQUEST_STREAM_PREFIX, // requestStreamId (event-ids.ts): admission, usage, cost
  'ratelimit-', // leaseStreamId (rate-limit-ledger.rules.ts): slice leases
  'model-status-', // model-status.service.ts
  'gateway-', // the write probe (write-tracking-event-store.ts) and the store identity
  'budget-', // budgetStreamId (budget.events.ts): spend holds per key and organization
  'api-key-', // apiKeyStream (key-events.ts): a runtime key's lifecycle
  'organization-', // organizationStream (key-events.ts): budgets set through the management API
];

/** Holds the store's identity (EventStore.storeId): one event, written once when first asked. */
export const STORE_IDENTITY_STREAM = 'gateway-store-identity';
export const STORE_IDENTIFIED_TYPE = 'StoreIdentified';
