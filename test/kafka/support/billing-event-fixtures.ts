// Billing events shaped like the ones BillingService appends, with chosen organization, day and cost.
import type { NewEvent } from '../../../src/event-store/event-store.port';
import { eventIdFor, requestStreamId } from '../../../src/event-store/event-ids';
import { EVENT_SCHEMA_VERSION } from '../../../src/event-store/gateway-event-types';
import { type CostPricedV1, type UsageMeasuredV1 } from '../../../src/billing/billing.events';
import { emptyInputUsage, emptyOutputUsage } from '../../../src/billing/usage';
import type { UpstreamAttemptRecordedV1 } from '../../../src/routing/routing.events';

export interface BilledRequest {
  requestId: string;
  organizationId: string;
  occurredAt: string;
  costUsdMicros: number | null;
}

export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
}

const metadata = { schemaVersion: EVENT_SCHEMA_VERSION };

function usageMeasured(request: BilledRequest): UsageMeasuredV1 {
  return {
    requestId: request.requestId,
    correlationId: null,
    organizationId: request.organizationId,
    keyId: 'key-test',
    model: 'aria',
    endpoint: '/v1/chat/completions',
    input: emptyInputUsage(),
    output: emptyOutputUsage(),
    metering: 'boundary',
    occurredAt: request.occurredAt,
  };
}

function costPriced(request: BilledRequest): CostPricedV1 {
  return {
    requestId: request.requestId,
    organizationId: request.organizationId,
    model: 'aria',
    endpoint: '/v1/chat/completions',
    costUsdMicros: request.costUsdMicros,
    lineItems: [],
    priceBookVersion: 'test',
    occurredAt: request.occurredAt,
  };
}

/** The UsageMeasured + CostPriced pair of one request, plus a RequestAdmitted the relay must skip. */
export function billedRequestAppend(request: BilledRequest): StreamAppend {
  const { requestId, organizationId } = request;
  return {
    streamId: requestStreamId(requestId),
    events: [
      {
        id: eventIdFor(requestId, 'RequestAdmitted'),
        type: 'RequestAdmitted',
        data: { requestId, organizationId, keyId: 'key-test', endpoint: '/v1/chat/completions', admittedAt: Date.parse(request.occurredAt) },
        metadata,
      },
      { id: eventIdFor(requestId, 'UsageMeasured'), type: 'UsageMeasured', data: usageMeasured(request), metadata },
      { id: eventIdFor(requestId, 'CostPriced'), type: 'CostPriced', data: costPriced(request), metadata },
    ],
  };
}

const ORGANIZATIONS = ['org-alpha', 'org-beta', 'org-gamma'];
const DAYS = ['2026-11-19', '2026-11-20', '2026-11-21'];

/** A deterministic spread of requests over organizations, days and costs (some unpriced). */
export function billedRequests(count: number, prefix: string): BilledRequest[] {
  return Array.from({ length: count }, (_, index) => ({
    requestId: `${prefix}-${index}`,
    organizationId: ORGANIZATIONS[index % ORGANIZATIONS.length],
    occurredAt: `${DAYS[Math.floor(index / ORGANIZATIONS.length) % DAYS.length]}T${String(index % 24).padStart(2, '0')}:15:00.000Z`,
    costUsdMicros: index % 17 === 0 ? null : 1_000 + ((index * 7_919) % 250_000),
  }));
}

/**
 * The UpstreamAttemptRecorded events of one request, shaped like routing's attempt log: every third request
 * first failed on `dep-west`; the served attempt carries a cost of goods when the request was priced.
 */
export function attemptEvents(request: BilledRequest, index: number): NewEvent[] {
  const served = index % 2 === 0 ? 'dep-east' : 'dep-west';
  const attempts: Omit<UpstreamAttemptRecordedV1, 'attempt'>[] = [];
  const base = { requestId: request.requestId, organizationId: request.organizationId, modelId: 'aria', occurredAt: request.occurredAt };
  if (index % 3 === 0) attempts.push({ ...base, deploymentId: 'dep-west', outcome: 'upstream_5xx', status: 502, timeToFirstByteMs: 12, costOfGoodsUsdMicros: null });
  const costOfGoods = request.costUsdMicros === null ? null : String(Math.floor(request.costUsdMicros * 0.6));
  attempts.push({ ...base, deploymentId: served, outcome: 'served', status: 200, timeToFirstByteMs: 40, costOfGoodsUsdMicros: costOfGoods });
  return attempts.map((attempt, i) => ({
    id: eventIdFor(request.requestId, `upstream-attempt:${i + 1}`),
    type: 'UpstreamAttemptRecorded',
    data: { ...attempt, attempt: i + 1 },
    metadata: { schemaVersion: 1 },
  }));
}
