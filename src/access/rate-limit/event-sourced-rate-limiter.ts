// Admits requests from the in-memory rate-limit read model (no I/O in the decision), then records
// the admission as `RequestAdmitted` (awaited: if it cannot be recorded the request gets 503).
// Admissions by other replicas arrive through the event subscription (see docs/rate-limits.md).
import type { CallerContext } from '../access.types';
import { ApiError } from '../../common/api-error';
import type { EventStore, Subscription } from '../../event-store/event-store.port';
import { eventIdFor, requestStreamId } from '../../event-store/event-ids';
import type { RequestAdmittedV1 } from '../../billing/billing.events';
import type { BackgroundService } from '../../core/gateway-runtime';
import { AdmissionDecision, RateLimiter } from './rate-limiter.port';
import { RateLimitProjection } from './rate-limit.projection';

export class EventSourcedRateLimiter extends RateLimiter implements BackgroundService {
  readonly name = 'rate_limits';
  private subscription: Subscription | null = null;
  private caughtUp = false;

  constructor(
    private readonly store: EventStore,
    private readonly projection: RateLimitProjection,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  async start(): Promise<void> {
    const after = await this.projection.catchUp(this.store, this.now());
    this.caughtUp = true;
    this.subscription = this.store.subscribeToAll({ after }, (event) => {
      if (event.type === 'RequestAdmitted') this.projection.apply(event.data as RequestAdmittedV1);
    });
  }

  ready(): boolean {
    return this.caughtUp;
  }

  async admit(caller: CallerContext, requestId: string, endpoint: string): Promise<AdmissionDecision> {
    const admittedAt = this.now();
    const decision = this.projection.decide(caller.organizationId, caller.organization.rate_limit, admittedAt);
    if (!decision.admitted) return decision;
    const event: RequestAdmittedV1 = { requestId, organizationId: caller.organizationId, keyId: caller.keyId, endpoint, admittedAt };
    this.projection.apply(event);
    try {
      await this.store.append(requestStreamId(requestId), [
        { id: eventIdFor(requestId, 'RequestAdmitted'), type: 'RequestAdmitted', data: event, metadata: { schemaVersion: 1 } },
      ]);
    } catch {
      this.projection.forget(event);
      throw ApiError.unavailable('rate_limit_unavailable', 'The rate-limit service is temporarily unavailable.', 1);
    }
    return decision;
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }
}
