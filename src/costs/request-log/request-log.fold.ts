// Pure fold of a page of billing events into the request log: one entry per request, built from its
// UsageMeasured (key, usage vector), CostPriced (billed cost) and UsageDisputed (flag), whichever
// arrive, in whatever pages. Each entry is what the page says; the projection merges it with the row.
import type { CostPricedV1, UsageDisputedV1, UsageMeasuredV1 } from '../../billing/billing.events';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { EventContractError } from '../../projections/parking/event-contract-error';
import { checkCostPricedEvent } from '../read-model/cost-priced-contract';

export interface RequestLogPatch {
  organizationId: string;
  requestId: string;
  occurredAt: string;
  model: string;
  endpoint: string;
  /** null: not said by this page. */
  keyId: string | null;
  /** JSON of `{input, output}` from UsageMeasured; null: not said by this page. */
  usage: string | null;
  priced: boolean;
  /** Billed micros; null when priced but not charged, or not priced in this page. */
  costUsdMicros: bigint | null;
  disputed: boolean;
}

export const REQUEST_LOG_EVENTS = new Set(['UsageMeasured', 'CostPriced', 'UsageDisputed']);

/** Patches in order of each request's first event in the page. Throws EventContractError on a malformed event. */
export function foldRequestLogPage(events: readonly RecordedEvent[]): RequestLogPatch[] {
  const patches = new Map<string, RequestLogPatch>();
  const patchOf = (data: RequestIdentity): RequestLogPatch => {
    let patch = patches.get(data.requestId);
    if (!patch) {
      patch = { ...identityOf(data), keyId: null, usage: null, priced: false, costUsdMicros: null, disputed: false };
      patches.set(data.requestId, patch);
    }
    return patch;
  };
  for (const event of events) {
    if (event.type === 'UsageMeasured') {
      const measured = checked<UsageMeasuredV1>(event);
      const patch = patchOf(measured);
      patch.keyId = typeof measured.keyId === 'string' ? measured.keyId : null;
      patch.usage = JSON.stringify({ input: measured.input ?? null, output: measured.output ?? null });
    } else if (event.type === 'CostPriced') {
      const { event: priced, costUsdMicros } = checkCostPricedEvent(event);
      const patch = patchOf(checked<CostPricedV1>(event));
      patch.priced = true;
      patch.costUsdMicros = priced.costUsdMicros === null ? null : costUsdMicros;
    } else if (event.type === 'UsageDisputed') {
      // Only a hard dispute changed what was billed; a soft one (billed as reported) is for review only.
      const disputed = checked<UsageDisputedV1>(event);
      if (disputed.severity !== 'soft') patchOf(disputed).disputed = true;
    }
  }
  return [...patches.values()];
}

type RequestIdentity = Pick<UsageMeasuredV1, 'requestId' | 'organizationId' | 'occurredAt' | 'model' | 'endpoint'>;

function checked<T extends RequestIdentity>(event: RecordedEvent): T {
  const data = event.data as Partial<T> | null;
  const label = `${event.type} ${event.id}`;
  if (typeof data !== 'object' || data === null) throw new EventContractError(`${label}: data is not an object`);
  if (typeof data.requestId !== 'string' || data.requestId === '') throw new EventContractError(`${label}: requestId missing`);
  if (typeof data.organizationId !== 'string' || data.organizationId === '') throw new EventContractError(`${label}: organizationId missing`);
  if (typeof data.occurredAt !== 'string' || Number.isNaN(Date.parse(data.occurredAt))) throw new EventContractError(`${label}: occurredAt is not a timestamp`);
  return data as T;
}

function identityOf({ requestId, organizationId, occurredAt, model, endpoint }: RequestIdentity) {
  return { requestId, organizationId, occurredAt, model: typeof model === 'string' ? model : '', endpoint: typeof endpoint === 'string' ? endpoint : '' };
}
