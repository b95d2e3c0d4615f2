// Guards every keyed endpoint: authenticate, then admit against the organization's rate limit.
// The gateway admits the caller in an onRequest hook, before a byte of the body is read
// (authenticate-before-body.hook.ts, with `admit` below); the guard then only checks that it did.
// A route the hook does not know (or an app built without it) is admitted here, the same way.
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { attachCaller } from '../common/request-context';
import { AccessStore } from './access.store';
import { authenticate } from './authenticate';
import type { RateLimitConfig } from './access.types';
import { RateLimiter } from '../rate-limits/rate-limiter.port';
import { KeyRateWindows } from '../rate-limits/management-rate-window';

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/** Requests already admitted (by the hook): a request is authenticated and rate-limited once. */
const admittedRequests = new WeakSet<FastifyRequest>();

@Injectable()
export class KeyGuard implements CanActivate {
  constructor(
    private readonly store: AccessStore,
    private readonly rateLimiter: RateLimiter,
    private readonly keyWindows: KeyRateWindows,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!admittedRequests.has(request)) await this.admit(request, context.switchToHttp().getResponse<FastifyReply>());
    return true;
  }

  /** Authenticates the caller (401/402/403) and admits it against the key's and the organization's rate limits (429). */
  async admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
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
    admittedRequests.add(request);
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
