// A known path asked with a method it does not serve is a 405 with `Allow`, not an unknown path
// (Fastify's router answers both 404). The methods come from the routes the application registered
// (Fastify's onRoute hook, HEAD included for every GET), so a new route is covered without a list to
// keep. The 405 is a route of its own for each missing method, answered before the body is read or
// the key is checked: the method is wrong whoever asks, whatever is sent.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error';

/** Methods by route URL (Fastify's pattern, e.g. `/v1/images/:path`), in registration order. */
export type RouteTable = Map<string, Set<string>>;

/** Records every route from now on; call before the application registers its routes. */
export function recordRoutes(fastify: FastifyInstance): RouteTable {
  const table: RouteTable = new Map();
  fastify.addHook('onRoute', (route) => {
    const methods = table.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method.toUpperCase());
    table.set(route.url, methods);
  });
  return table;
}

/** `Allow` for a route: its methods in the order Fastify lists the methods it supports. */
export function allowHeader(served: ReadonlySet<string>, supported: readonly string[]): string {
  return supported.filter((method) => served.has(method)).join(', ');
}

/** The methods a route does not serve, each to be answered 405. */
export function missingMethods(served: ReadonlySet<string>, supported: readonly string[]): string[] {
  return supported.filter((method) => !served.has(method));
}

/** Answers 405 from the route's onRequest hook (a hook that replies does not call `done`). */
function refuse(allow: string) {
  return (request: FastifyRequest, reply: FastifyReply): void => {
    const path = request.url.split('?', 1)[0];
    const message = `${request.method} is not allowed on ${path}; allowed: ${allow}.`;
    const error = new ApiError(405, 'method_not_allowed', message, 'invalid_request_error', null, { allow });
    void reply.code(error.status).headers(error.headers).send(error.toBody());
  };
}

/**
 * Adds the 405 routes for every recorded URL; call once the application's routes are registered and
 * before it listens. Routes registered afterwards are not covered (and must not reuse a covered URL).
 */
export function refuseUnservedMethods(fastify: FastifyInstance, table: RouteTable): void {
  const supported = fastify.supportedMethods;
  for (const [url, served] of [...table]) {
    const missing = missingMethods(served, supported);
    if (missing.length === 0) continue;
    const answer = refuse(allowHeader(served, supported));
    fastify.route({ method: missing, url, onRequest: (request, reply) => answer(request, reply), handler: answer });
  }
}
