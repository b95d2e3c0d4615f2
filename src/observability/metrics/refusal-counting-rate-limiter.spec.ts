import { ApiError } from '../../common/api-error';
import type { CallerContext } from '../../access/access.types';
import { RateLimiter, type AdmissionDecision } from '../../rate-limits/rate-limiter.port';
import { RefusalCountingRateLimiter } from './refusal-counting-rate-limiter';

const caller = { keyId: 'k', organizationId: 'org-a', organization: {} } as CallerContext;

function limiter(outcome: () => Promise<AdmissionDecision>): RateLimiter {
  return new (class extends RateLimiter {
    admit = outcome;
  })();
}

describe('RefusalCountingRateLimiter', () => {
  const refusal = jest.fn();
  beforeEach(() => refusal.mockReset());

  it('passes an admission through without counting', async () => {
    const decision = { admitted: true, limit: 10, remaining: 9, retryAfterSeconds: 0 };
    await expect(new RefusalCountingRateLimiter(limiter(async () => decision), { refusal }).admit(caller, 'r', '/x')).resolves.toBe(decision);
    expect(refusal).not.toHaveBeenCalled();
  });

  it('counts a refusal for the caller\'s organization and passes it through', async () => {
    const decision = { admitted: false, limit: 10, remaining: 0, retryAfterSeconds: 3 };
    await expect(new RefusalCountingRateLimiter(limiter(async () => decision), { refusal }).admit(caller, 'r', '/x')).resolves.toBe(decision);
    expect(refusal).toHaveBeenCalledWith('org-a', 'rate_limited');
  });

  it('counts a limiter that could not decide (503) and rethrows it', async () => {
    const error = ApiError.unavailable('rate_limit_unavailable', 'down', 1);
    await expect(new RefusalCountingRateLimiter(limiter(() => Promise.reject(error)), { refusal }).admit(caller, 'r', '/x')).rejects.toBe(error);
    expect(refusal).toHaveBeenCalledWith('org-a', 'limiter_unavailable');
  });

  it('rethrows anything else without counting it', async () => {
    const error = new Error('bug');
    await expect(new RefusalCountingRateLimiter(limiter(() => Promise.reject(error)), { refusal }).admit(caller, 'r', '/x')).rejects.toBe(error);
    expect(refusal).not.toHaveBeenCalled();
  });
});
