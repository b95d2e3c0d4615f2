// Authenticates the caller of a keyed route (key, organization, payment method, rate limit: the
// key guard's own `admit`) before a byte of its body is read or parsed. Parsing first let anyone
// without a key make the gateway read and parse a 50 MB JSON body (RSS +263 MB) just to answer 401.
// A refused request's body is never parsed: it is drained within a bound, or its connection closed
// (body-budget.hook.ts, drain-refused-upload.ts). Rate-limit headers set here stay on the answer.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { refuseUnread } from '../common/body-budget.hook';
import { toApiError } from '../common/exception.filter';

export interface CallerAdmission {
  admit(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** `keyed`: `METHOD /route` of the routes to authenticate (keyed-routes.ts). */
export function authenticateBeforeBody(fastify: FastifyInstance, keyed: ReadonlySet<string>, admission: CallerAdmission): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (reply.sent || !keyed.has(`${request.method} ${request.routeOptions.url}`)) return;
    try {
      await admission.admit(request, reply);
    } catch (exception) {
      const error = toApiError(exception);
      refuseUnread(request, reply, error instanceof ApiError ? error : ApiError.badRequest('invalid_request', error.message));
      return reply;
    }
  });
}
