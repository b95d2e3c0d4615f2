// Per-organization admission. The decision is made in memory from the rate-limit read model; the
// admission itself is recorded as a `RequestAdmitted` event so every replica shares one budget.
import type { CallerContext } from '../access/access.types';

export interface AdmissionDecision {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the next request would be admitted (only when refused). */
  retryAfterSeconds: number;
}

export abstract class RateLimiter {
  abstract admit(caller: CallerContext, requestId: string, endpoint: string): Promise<AdmissionDecision>;
}
