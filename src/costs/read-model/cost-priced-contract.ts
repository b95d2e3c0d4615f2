// What a stored CostPriced must look like to be folded into money: checked once, by the projection and
// by the ledger check alike, so both agree on which events count. Violations are EventContractErrors.
import { EVENT_SCHEMA_VERSION } from '../../event-store/gateway-event-types';
import { type CostPricedV1 } from '../../billing/billing.events';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { dayOfTimestamp, type UtcDay } from '../domain/utc-day';
import { EventContractError } from '../../projections/parking/event-contract-error';
import { parseIntegerMicros } from './event-amounts';

export interface CheckedCostPriced {
  event: CostPricedV1;
  day: UtcDay;
  /** `costUsdMicros`, 0 when the request was not charged (null). */
  costUsdMicros: bigint;
}

/**
 * Three read models fold every CostPriced (daily cost, cost dimensions, request log), each from the same
 * recorded event object when they follow the store live: it is checked once and the verdict kept with the
 * event (weakly, so it goes with the event), a violation thrown again as the same error.
 */
const verdicts = new WeakMap<RecordedEvent, CheckedCostPriced | EventContractError>();

/** A stored CostPriced: its schema version (absent means 1) must be one this fold knows, then its data. */
export function checkCostPricedEvent(event: RecordedEvent): CheckedCostPriced {
  let verdict = verdicts.get(event);
  if (verdict === undefined) {
    verdict = verdictOf(event);
    verdicts.set(event, verdict);
  }
  if (verdict instanceof EventContractError) throw verdict;
  return verdict;
}

function verdictOf(event: RecordedEvent): CheckedCostPriced | EventContractError {
  try {
    return checkOnce(event);
  } catch (error) {
    if (error instanceof EventContractError) return error;
    throw error;
  }
}

function checkOnce(event: RecordedEvent): CheckedCostPriced {
  const version = event.metadata?.schemaVersion ?? EVENT_SCHEMA_VERSION;
  if (version !== EVENT_SCHEMA_VERSION) throw new EventContractError(`CostPriced ${event.id}: unknown schema version ${JSON.stringify(version)}`);
  return checkCostPriced(event.data);
}

export function checkCostPriced(data: unknown): CheckedCostPriced {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new EventContractError('CostPriced data is not an object');
  const event = data as CostPricedV1;
  // Named only when something is wrong: the label's JSON is most of the check's cost otherwise.
  const label = () => `CostPriced ${JSON.stringify(event.requestId)}`;
  if (typeof event.organizationId !== 'string' || event.organizationId === '') throw new EventContractError(`${label()}: organizationId missing`);
  if (!Array.isArray(event.lineItems)) throw new EventContractError(`${label()}: lineItems is not an array`);
  return { event, day: dayOf(event.occurredAt, label), costUsdMicros: costOf(event.costUsdMicros, label) };
}

function dayOf(occurredAt: unknown, label: () => string): UtcDay {
  try {
    if (typeof occurredAt !== 'string') throw new TypeError();
    return dayOfTimestamp(occurredAt);
  } catch {
    throw new EventContractError(`${label()}: occurredAt ${JSON.stringify(occurredAt)} is not a timestamp`);
  }
}

function costOf(costUsdMicros: unknown, label: () => string): bigint {
  if (costUsdMicros === null) return 0n;
  if (typeof costUsdMicros === 'string' && SAFE_MICROS.test(costUsdMicros)) return BigInt(costUsdMicros);
  return parseIntegerMicros(costUsdMicros, `${label()}: costUsdMicros`);
}

/** Up to 15 digits is always within MAX_EVENT_USD_MICROS (9,007,199,254,740,991): parsed without the full check. */
const SAFE_MICROS = /^-?\d{1,15}$/;
