// Guards every keyed endpoint: authenticate, then admit against the organization's rate limit.
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { attachCaller } from '../common/request-context';
import { AccessStore } from './access.store';
import { authenticate } from './authenticate';
import type { RateLimitConfig } from './access.types';
import { RateLimiter } from './rate-limit/rate-limiter.port';
import { KeyRateWindows } from './management-rate-window';

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

@Injectable()
export class KeyGuard implements CanActivate {
  constructor(
    private readonly store: AccessStore,
    private readonly rateLimiter: RateLimiter,
    private readonly keyWindows: KeyRateWindows,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const caller = await authenticate(
      this.store,
      {
        authorization: singleHeader(request.headers.authorization),
        organization: singleHeader(request.headers['x-organization-id']),
      },
      new Date(),
    );
    if (caller.keyRateLimit) this.admitKey(caller.keyId, caller.keyRateLimit);
    const endpoint = request.routeOptions.url ?? request.url;
    const decision = await this.rateLimiter.admit(caller, request.id, endpoint);
    reply.header('x-ratelimit-limit', String(decision.limit));
    reply.header('x-ratelimit-remaining', String(decision.remaining));
    if (!decision.admitted) {
      throw new ApiError(429, 'rate_limit_exceeded', `Rate limit of ${decision.limit} requests per window exceeded for this organization.`,
        'rate_limit_error', null, { 'retry-after': String(decision.retryAfterSeconds) });
    }
    attachCaller(request, caller);
    return true;
  }

  /** A key's own limit, checked before the organization's so a refused request takes none of the organization's budget. */
  private admitKey(keyId: string, limit: RateLimitConfig): void {
    const decision = this.keyWindows.admit(keyId, limit.requests, limit.window_seconds * 1000, Date.now());
    if (!decision.admitted) {
      throw new ApiError(429, 'rate_limit_exceeded', `Rate limit of ${limit.requests} requests per ${limit.window_seconds} s exceeded for this API key.`,
        'rate_limit_error', null, { 'retry-after': String(decision.retryAfterSeconds) });
    }
  }
}
