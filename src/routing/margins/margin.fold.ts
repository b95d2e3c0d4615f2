// Pure fold of a page of events into the operator's daily margin (docs/routing.md "Margins"): revenue is
// the customers' CostPriced, cost of goods the served UpstreamAttemptRecorded of the same request, which
// the charge's append carries right after the CostPriced. A page can end between the two, so the
// CostPriced still waiting for its attempt at the end of a page is carried to the next one; a request
// with no served attempt recorded there either (speech, transcription, events from before routing) counts
// as revenue of unknown cost, grouped under deployment '' (reported as null).
import type { RecordedEvent } from '../../event-store/event-store.port';
import { dayOfTimestamp, type UtcDay } from '../../costs/domain/utc-day';

export type MarginDimension = 'model' | 'deployment' | 'organization';

export interface Revenue {
  requestId: string;
  organizationId: string;
  modelId: string;
  day: UtcDay;
  revenueUsdMicros: bigint;
}

export interface MarginDelta {
  day: UtcDay;
  dimension: MarginDimension;
  /** The model, `<model>/<deployment>`, or the organization. */
  value: string;
  revenueUsdMicros: bigint;
  /** Revenue of the requests whose cost of goods is known: margin = this - costOfGoodsUsdMicros. */
  costedRevenueUsdMicros: bigint;
  costOfGoodsUsdMicros: bigint;
  requests: number;
  unknownCostRequests: number;
}

export interface MarginPage {
  deltas: MarginDelta[];
  /** Charges of this page whose attempt may be in the next page. */
  carried: Revenue[];
}

export function foldMarginPage(events: readonly RecordedEvent[], carriedIn: readonly Revenue[]): MarginPage {
  const sums = new Map<string, MarginDelta>();
  const waiting = new Map<string, Revenue>(carriedIn.map((r) => [r.requestId, r]));
  const fromEarlierPage = new Set(carriedIn.map((r) => r.requestId));
  const settle = (revenue: Revenue, deploymentId: string, cost: bigint | null) => {
    for (const [dimension, value] of [['model', revenue.modelId], ['organization', revenue.organizationId], ['deployment', `${revenue.modelId}/${deploymentId}`]] as const) {
      add(sums, { day: revenue.day, dimension, value, revenueUsdMicros: revenue.revenueUsdMicros, costedRevenueUsdMicros: cost === null ? 0n : revenue.revenueUsdMicros, costOfGoodsUsdMicros: cost ?? 0n, requests: 1, unknownCostRequests: cost === null ? 1 : 0 });
    }
  };
  for (const event of events) {
    const data = event.data as Record<string, unknown>;
    if (event.type === 'CostPriced') {
      const revenue = revenueOf(data);
      if (revenue) waiting.set(revenue.requestId, revenue);
    } else if (event.type === 'UpstreamAttemptRecorded' && data.outcome === 'served') {
      const revenue = waiting.get(String(data.requestId));
      if (!revenue) continue; // served but never charged (its answer failed after the head): no revenue, no margin
      waiting.delete(revenue.requestId);
      const cost = typeof data.costOfGoodsUsdMicros === 'string' && /^\d+$/.test(data.costOfGoodsUsdMicros) ? BigInt(data.costOfGoodsUsdMicros) : null;
      settle(revenue, String(data.deploymentId), cost);
    }
  }
  const carried: Revenue[] = [];
  for (const revenue of waiting.values()) {
    if (fromEarlierPage.has(revenue.requestId)) settle(revenue, '', null);
    else carried.push(revenue);
  }
  return { deltas: [...sums.values()], carried };
}

function revenueOf(data: Record<string, unknown>): Revenue | null {
  const { requestId, organizationId, model, costUsdMicros, occurredAt } = data;
  if (typeof requestId !== 'string' || typeof organizationId !== 'string' || typeof occurredAt !== 'string') return null;
  const micros = typeof costUsdMicros === 'number' && Number.isSafeInteger(costUsdMicros) ? BigInt(costUsdMicros) : 0n;
  return { requestId, organizationId, modelId: typeof model === 'string' ? model : '', day: dayOfTimestamp(occurredAt), revenueUsdMicros: micros };
}

function add(sums: Map<string, MarginDelta>, delta: MarginDelta): void {
  const id = `${delta.day}\u0000${delta.dimension}\u0000${delta.value}`;
  const seen = sums.get(id);
  if (!seen) return void sums.set(id, delta);
  seen.revenueUsdMicros += delta.revenueUsdMicros;
  seen.costedRevenueUsdMicros += delta.costedRevenueUsdMicros;
  seen.costOfGoodsUsdMicros += delta.costOfGoodsUsdMicros;
  seen.requests += delta.requests;
  seen.unknownCostRequests += delta.unknownCostRequests;
}
