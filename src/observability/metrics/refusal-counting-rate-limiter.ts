// Counts the rate limiter's refusals per organization without touching the limiter: a decorator the
// runtime puts in front of it when metrics are on.
import { ApiError } from '../../common/api-error';
import type { CallerContext } from '../../access/access.types';
import { RateLimiter, type AdmissionDecision } from '../../rate-limits/rate-limiter.port';
import type { ActivityMetrics } from './activity-metrics';

export class RefusalCountingRateLimiter extends RateLimiter {
  constructor(
    private readonly inner: RateLimiter,
    private readonly metrics: Pick<ActivityMetrics, 'refusal'>,
  ) {
    super();
  }

  async admit(caller: CallerContext, requestId: string, endpoint: string): Promise<AdmissionDecision> {
    let decision: AdmissionDecision;
    try {
      decision = await this.inner.admit(caller, requestId, endpoint);
    } catch (error) {
      if (error instanceof ApiError && error.status === 503) this.metrics.refusal(caller.organizationId, 'limiter_unavailable');
      throw error;
    }
    if (!decision.admitted) this.metrics.refusal(caller.organizationId, 'rate_limited');
    return decision;
  }
}
