// Pure fold of a page of billing events into what it adds to each organization's daily cost per model
// and per API key. CostPriced says the model but not the key: the key comes from the request's
// UsageMeasured, appended just before it (billing.service.ts), possibly in an earlier page.
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { UtcDay } from '../domain/utc-day';
import { checkCostPricedEvent } from './cost-priced-contract';

export type CostDimension = 'model' | 'api_key_id';

/** The key column of a request whose key no UsageMeasured named (stored as text, reported as null). */
export const UNKNOWN_KEY = '';

export interface DimensionDelta {
  organizationId: string;
  day: UtcDay;
  dimension: CostDimension;
  value: string;
  amountUsdMicros: bigint;
  pricedRequests: number;
}

export interface DimensionPage {
  deltas: DimensionDelta[];
  /** Keys of requests measured in this page but not yet priced: kept for a later page. */
  pendingKeys: Map<string, string>;
  /** Requests priced in this page whose key came from an earlier page: forgotten now. */
  settledRequests: string[];
}

/** `earlierKeyOf` answers for requests measured in earlier pages. Throws EventContractError on a bad CostPriced. */
export function foldDimensionPage(events: readonly RecordedEvent[], earlierKeyOf: (requestId: string) => string | undefined): DimensionPage {
  const pendingKeys = new Map<string, string>();
  const settledRequests: string[] = [];
  const sums = new Map<string, DimensionDelta>();
  const add = (delta: Omit<DimensionDelta, 'pricedRequests'>) => {
    const id = `${delta.organizationId}\u0000${delta.day}\u0000${delta.dimension}\u0000${delta.value}`;
    const seen = sums.get(id);
    if (seen) {
      seen.amountUsdMicros += delta.amountUsdMicros;
      seen.pricedRequests += 1;
    } else sums.set(id, { ...delta, pricedRequests: 1 });
  };
  for (const event of events) {
    if (event.type === 'UsageMeasured') {
      const { requestId, keyId } = event.data as { requestId?: unknown; keyId?: unknown };
      if (typeof requestId === 'string' && typeof keyId === 'string') pendingKeys.set(requestId, keyId);
    } else if (event.type === 'CostPriced') {
      const { event: priced, day, costUsdMicros } = checkCostPricedEvent(event);
      let keyId = pendingKeys.get(priced.requestId);
      if (keyId === undefined) {
        keyId = earlierKeyOf(priced.requestId);
        if (keyId !== undefined) settledRequests.push(priced.requestId);
      } else pendingKeys.delete(priced.requestId);
      const base = { organizationId: priced.organizationId, day, amountUsdMicros: costUsdMicros };
      add({ ...base, dimension: 'model', value: typeof priced.model === 'string' ? priced.model : '' });
      add({ ...base, dimension: 'api_key_id', value: keyId ?? UNKNOWN_KEY });
    }
  }
  return { deltas: [...sums.values()], pendingKeys, settledRequests };
}
