// Admits requests from the in-memory rate-limit read model (no I/O in the decision), then records
// the admission as `RequestAdmitted` (awaited: if it cannot be recorded the request gets 503).
// Admissions by other replicas arrive through the projection's event subscription (docs/rate-limits.md).
import type { CallerContext } from '../access.types';
import { ApiError } from '../../common/api-error';
import type { EventStore } from '../../event-store/event-store.port';
import { eventIdFor, requestStreamId } from '../../event-store/event-ids';
import { StoreWritesFailingError } from '../../event-store/write-tracking-event-store';
import type { RequestAdmittedV1 } from '../../billing/billing.events';
import type { BackgroundService } from '../../core/gateway-runtime';
import type { RateLimitProjection } from '../../projections/rate-limit/rate-limit.projection';
import { AdmissionDecision, RateLimiter } from './rate-limiter.port';

export class EventSourcedRateLimiter extends RateLimiter implements BackgroundService {
  readonly name = 'rate_limits';
  private started = false;

  constructor(
    private readonly store: EventStore,
    private readonly projection: RateLimitProjection,
  ) {
    super();
  }

  /** Restores the counters' snapshot; the ProjectionHub then brings them up to date and keeps them so. */
  start(): void {
    this.projection.start();
    this.started = true;
  }

  ready(): boolean {
    return this.started;
  }

  async admit(caller: CallerContext, requestId: string, endpoint: string): Promise<AdmissionDecision> {
    const limit = caller.organization.rate_limit;
    const decision = this.projection.admit(caller.organizationId, limit, requestId);
    const result = { admitted: decision.admitted, limit: limit.requests, remaining: decision.remaining, retryAfterSeconds: decision.retryAfterSeconds ?? 0 };
    if (!decision.admitted) return result;
    const event: RequestAdmittedV1 = { requestId, organizationId: caller.organizationId, keyId: caller.keyId, endpoint, admittedAt: Date.now() };
    try {
      await this.store.append(requestStreamId(requestId), [
        { id: eventIdFor(requestId, 'RequestAdmitted'), type: 'RequestAdmitted', data: event, metadata: { schemaVersion: 1 } },
      ]);
    } catch (error) {
      this.projection.withdraw(caller.organizationId, requestId);
      // Known failing writes: billing could not be recorded either, so the request is refused as such.
      if (error instanceof StoreWritesFailingError) throw ApiError.unavailable('billing_unavailable', 'Billing cannot be recorded right now; the request was not served. Retry shortly.', 1);
      throw ApiError.unavailable('rate_limit_unavailable', 'The rate-limit service is temporarily unavailable.', 1);
    }
    return result;
  }

  async stop(): Promise<void> {
    this.projection.stop();
  }
}
