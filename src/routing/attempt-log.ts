// The attempts of each request until they are recorded: a failed request's on their own when it fails,
// a served request's in the same append as its charge (billing.service.ts asks for them), so that the
// customer's CostPriced and the operator's cost of goods land together or not at all.
import type { CatalogModel, DeploymentConfig } from '../catalog/catalog.types';
import type { NewEvent } from '../event-store/event-store.port';
import { eventIdFor } from '../event-store/event-ids';
import type { BillableUsage } from '../billing/pricing/price';
import { costOfGoodsMicros } from './cost-of-goods';
import { UPSTREAM_ATTEMPT_RECORDED, type AttemptOutcome, type UpstreamAttemptRecordedV1 } from './routing.events';

export interface Attempt {
  deployment: DeploymentConfig;
  outcome: AttemptOutcome;
  status: number | null;
  timeToFirstByteMs: number | null;
  occurredAt: string;
}

interface PendingRequest {
  organizationId: string;
  modelId: string;
  attempts: Attempt[];
  startedAt: number;
}

/** A served request that is never charged (its answer failed after the head) is forgotten after this. */
const FORGET_AFTER_MS = 15 * 60_000;

export class AttemptLog {
  private readonly pending = new Map<string, PendingRequest>();

  add(requestId: string, organizationId: string, modelId: string, attempt: Attempt, now = Date.now()): void {
    let entry = this.pending.get(requestId);
    if (!entry) {
      this.forgetOlderThan(now - FORGET_AFTER_MS);
      this.pending.set(requestId, (entry = { organizationId, modelId, attempts: [], startedAt: now }));
    }
    entry.attempts.push(attempt);
  }

  /** A request's attempts as events, removed from the log; the last served one carries the cost of goods. */
  take(requestId: string, model: CatalogModel | null, usage: BillableUsage | null): NewEvent[] {
    const events = this.peek(requestId, model, usage);
    this.pending.delete(requestId);
    return events;
  }

  /** The same events, left in the log (a running stream's pending charge, recorded in case of a crash). */
  peek(requestId: string, model: CatalogModel | null, usage: BillableUsage | null): NewEvent[] {
    const entry = this.pending.get(requestId);
    if (!entry) return [];
    const lastServed = entry.attempts.map((a) => a.outcome).lastIndexOf('served');
    return entry.attempts.map((attempt, index) => {
      const cost = index === lastServed && model && usage ? costOfGoodsMicros(model, attempt.deployment, usage) : null;
      return attemptEvent(requestId, entry, attempt, index + 1, cost);
    });
  }

  size(): number {
    return this.pending.size;
  }

  private forgetOlderThan(cutoff: number): void {
    for (const [requestId, entry] of this.pending) {
      if (entry.startedAt >= cutoff) return; // insertion order is age order
      this.pending.delete(requestId);
    }
  }
}

function attemptEvent(requestId: string, entry: PendingRequest, attempt: Attempt, number: number, cost: string | null): NewEvent {
  const data: UpstreamAttemptRecordedV1 = {
    requestId,
    organizationId: entry.organizationId,
    modelId: entry.modelId,
    deploymentId: attempt.deployment.id,
    attempt: number,
    outcome: attempt.outcome,
    status: attempt.status,
    timeToFirstByteMs: attempt.timeToFirstByteMs,
    costOfGoodsUsdMicros: cost,
    occurredAt: attempt.occurredAt,
  };
  return { id: eventIdFor(requestId, `upstream-attempt:${number}`), type: UPSTREAM_ATTEMPT_RECORDED, data, metadata: { schemaVersion: 1 } };
}
