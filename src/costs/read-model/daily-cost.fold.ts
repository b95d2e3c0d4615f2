// Pure fold of one CostPriced event into what it adds to the daily cost buckets of its organization.
import type { UtcDay } from '../domain/utc-day';
import { BigDecimal } from '../../common/big-decimal';
import { EventContractError } from '../../projections/parking/event-contract-error';
import { parseDecimal, parseIntegerMicros } from './event-amounts';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { checkCostPriced, checkCostPricedEvent, type CheckedCostPriced } from './cost-priced-contract';

export interface LineItemDelta {
  lineItem: string;
  amountUsdMicros: bigint;
  quantity: BigDecimal;
}

export interface DailyCostDelta {
  organizationId: string;
  day: UtcDay;
  /** What the request was billed: `costUsdMicros`, 0 when not charged (null). */
  totalUsdMicros: bigint;
  /** One entry per distinct line item name, sorted by name. */
  lineItems: LineItemDelta[];
}

/** Throws EventContractError for an event that cannot be folded exactly (it is then parked). */
export function dailyCostDelta(data: unknown): DailyCostDelta {
  return deltaOf(checkCostPriced(data));
}

/** The delta of a stored event, schema version checked too (the projection's entry point). */
export function dailyCostDeltaOfEvent(event: RecordedEvent): DailyCostDelta {
  return deltaOf(checkCostPricedEvent(event));
}

function deltaOf({ event, day, costUsdMicros }: CheckedCostPriced): DailyCostDelta {
  const byName = new Map<string, LineItemDelta>();
  for (const item of event.lineItems) {
    if (typeof item?.name !== 'string') throw new EventContractError(`CostPriced ${JSON.stringify(event.requestId)}: a line item has no name`);
    const amountUsdMicros = parseIntegerMicros(item.amount_usd_micros, `line item "${item.name}" amount`);
    const quantity = parseDecimal(item.quantity, `line item "${item.name}" quantity`);
    const seen = byName.get(item.name);
    byName.set(item.name, {
      lineItem: item.name,
      amountUsdMicros: (seen?.amountUsdMicros ?? 0n) + amountUsdMicros,
      quantity: seen ? seen.quantity.plus(quantity) : quantity,
    });
  }
  return {
    organizationId: event.organizationId,
    day,
    totalUsdMicros: costUsdMicros,
    lineItems: [...byName.values()].sort((a, b) => (a.lineItem < b.lineItem ? -1 : a.lineItem > b.lineItem ? 1 : 0)),
  };
}

/** What a page of requests adds to one organization's day: its summed deltas and how many requests. */
export interface DailyBucketDelta extends DailyCostDelta {
  pricedRequests: number;
}

/** Sums the deltas of one page per organization and day, so each bucket row is written once per page. */
export function mergeDailyDeltas(deltas: readonly DailyCostDelta[]): DailyBucketDelta[] {
  const buckets = new Map<string, { bucket: DailyBucketDelta; items: Map<string, LineItemDelta> }>();
  for (const delta of deltas) {
    const key = `${delta.organizationId}\u0000${delta.day}`;
    let entry = buckets.get(key);
    if (!entry) {
      entry = { bucket: { organizationId: delta.organizationId, day: delta.day, totalUsdMicros: 0n, pricedRequests: 0, lineItems: [] }, items: new Map() };
      buckets.set(key, entry);
    }
    entry.bucket.totalUsdMicros += delta.totalUsdMicros;
    entry.bucket.pricedRequests += 1;
    for (const item of delta.lineItems) {
      const seen = entry.items.get(item.lineItem);
      entry.items.set(item.lineItem, seen ? { lineItem: item.lineItem, amountUsdMicros: seen.amountUsdMicros + item.amountUsdMicros, quantity: seen.quantity.plus(item.quantity) } : item);
    }
  }
  return [...buckets.values()].map(({ bucket, items }) => ({ ...bucket, lineItems: [...items.values()] }));
}

export function addQuantities(stored: string | undefined, delta: BigDecimal): string {
  return (stored === undefined ? delta : BigDecimal.parse(stored).plus(delta)).toFixed();
}
