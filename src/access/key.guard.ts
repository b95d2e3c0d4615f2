// Guards every keyed endpoint: authenticate, then admit against the organization's rate limit.
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { attachCaller } from '../common/request-context';
import { AccessStore } from './access.store';
import { authenticate } from './authenticate';
import { RateLimiter } from './rate-limit/rate-limiter.port';

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

@Injectable()
export class KeyGuard implements CanActivate {
  constructor(
    private readonly store: AccessStore,
    private readonly rateLimiter: RateLimiter,
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
}
