// Pure fold of one CostPriced event into what it adds to the daily cost buckets of its organization.
import type { CostPricedV1 } from '../../billing/billing.events';
import { dayOfTimestamp, type UtcDay } from '../../costs/domain/utc-day';
import { ExactDecimal, parseDecimal, parseIntegerMicros } from '../exact-decimal';

export interface LineItemDelta {
  lineItem: string;
  amountUsdMicros: bigint;
  quantity: ExactDecimal;
}

export interface DailyCostDelta {
  organizationId: string;
  day: UtcDay;
  /** What the request was billed: `costUsdMicros`, 0 when not charged (null). */
  totalUsdMicros: bigint;
  /** One entry per distinct line item name, sorted by name. */
  lineItems: LineItemDelta[];
}

export function dailyCostDelta(event: CostPricedV1): DailyCostDelta {
  if (event.costUsdMicros !== null && !Number.isSafeInteger(event.costUsdMicros)) {
    throw new Error(`CostPriced ${event.requestId}: costUsdMicros ${event.costUsdMicros} is not an integer`);
  }
  const byName = new Map<string, LineItemDelta>();
  for (const item of event.lineItems) {
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
    day: dayOfTimestamp(event.occurredAt),
    totalUsdMicros: BigInt(event.costUsdMicros ?? 0),
    lineItems: [...byName.values()].sort((a, b) => (a.lineItem < b.lineItem ? -1 : a.lineItem > b.lineItem ? 1 : 0)),
  };
}

export function addQuantities(stored: string | undefined, delta: ExactDecimal): string {
  return (stored === undefined ? delta : new ExactDecimal(stored).plus(delta)).toFixed();
}
