// Authenticates the caller of a keyed route (key, organization, payment method, rate limit: the
// key guard's own `admit`) or of a management route (the management guard's `admit`) before a byte of
// its body is read or parsed. Parsing first let anyone
// without a key make the gateway read and parse a 50 MB JSON body (RSS +263 MB, 1.2 s) just to
// answer 401. A refused request's body is never parsed: it is drained within a bound, or its
// connection closed (body-budget.hook.ts, drain-refused-upload.ts). Rate-limit headers set here stay
// on the answer; the key guard then sees the request admitted and does nothing more.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import type { GatewayLog } from '../common/gateway-log';
import { requestLogFieldsOf } from '../observability/logging/request-log-fields';
import { refuseUnread } from '../common/body-budget.hook';
import { toApiError } from '../common/exception.filter';

export interface CallerAdmission {
  admit(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/**
 * `admissions`: who admits the caller of each `METHOD /route` to authenticate (keyed-routes.ts);
 * `logger`: where failures are logged (the exception filter's, context `errors`).
 */
export function authenticateBeforeBody(fastify: FastifyInstance, logger: GatewayLog, admissions: ReadonlyMap<string, CallerAdmission>): void {
  // A callback hook, not an async one: it runs on every request, and most need no promise.
  fastify.addHook('onRequest', (request, reply, done) => {
    const admission = admissions.get(`${request.method} ${request.routeOptions.url}`);
    if (admission === undefined) return done();
    admission.admit(request, reply).then(
      () => done(),
      (exception: unknown) => {
        const converted = toApiError(exception);
        const error = converted instanceof ApiError ? converted : new ApiError(500, 'internal_error', 'The server failed to process the request.', 'server_error');
        // As the exception filter does: the store being unavailable is the operator's to see.
        if (error.status === 500) logger.error(requestLogFieldsOf(request, { err: exception }), error.message);
        else if (error.status > 500) logger.warn(requestLogFieldsOf(request, { status: error.status, code: error.code }), error.message);
        refuseUnread(request, reply, error);
      },
    );
  });
}
