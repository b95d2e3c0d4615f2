// Guards the management API (/v1/keys, /v1/organizations/{id}/budget): only a management key passes,
// a model key is refused by name (403 management_key_required), and each management key is rate limited.
import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { AccessStore } from './access.store';
import { bearerToken } from './authenticate';
import { hashApiKey } from './key-hash';
import { ManagementRateWindow } from '../rate-limits/management-rate-window';
import type { ManagementKeyRecord } from './access.types';

type ManagementRequest = FastifyRequest & { managementKey?: ManagementKeyRecord };

async function lookup<T>(query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch {
    throw ApiError.unavailable('access_unavailable', 'The authentication service is temporarily unavailable.', 1);
  }
}

@Injectable()
export class ManagementGuard implements CanActivate {
  constructor(
    private readonly store: AccessStore,
    private readonly window: ManagementRateWindow,
  ) {}

  /** The caller is usually admitted before its body is read (authenticate-before-body.hook.ts, with `admit` below). */
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ManagementRequest>();
    if (!request.managementKey) await this.admit(request, context.switchToHttp().getResponse<FastifyReply>());
    return true;
  }

  /** Only a management key passes (401, or 403 for a model key), within its own rate limit (429). */
  async admit(request: ManagementRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const hash = hashApiKey(bearerToken(Array.isArray(header) ? header.join(',') : header));
    const key = await lookup(() => this.store.findManagementKeyByHash(hash));
    if (!key) {
      if (await lookup(() => this.store.findKeyByHash(hash))) {
        throw new ApiError(403, 'management_key_required', 'This endpoint needs a management key (configured under `management_keys`); API keys can only call model endpoints.', 'permission_error');
      }
      throw new ApiError(401, 'invalid_api_key', 'Invalid management key.', 'authentication_error');
    }
    const decision = this.window.admit(key.id, Date.now());
    reply.header('x-ratelimit-limit', String(decision.limit));
    reply.header('x-ratelimit-remaining', String(decision.remaining));
    if (!decision.admitted) {
      throw new ApiError(429, 'rate_limit_exceeded', `Rate limit of ${decision.limit} management requests per ${this.window.windowMs / 1000} s exceeded for this management key.`,
        'rate_limit_error', null, { 'retry-after': String(decision.retryAfterSeconds) });
    }
    request.managementKey = key;
  }
}

/** The management key the guard admitted (its id is recorded as `by` on every event). */
export const ManagementCaller = createParamDecorator((_data: unknown, context: ExecutionContext): ManagementKeyRecord => {
  const key = context.switchToHttp().getRequest<ManagementRequest>().managementKey;
  if (!key) throw new Error('ManagementCaller used on a route without ManagementGuard');
  return key;
});
