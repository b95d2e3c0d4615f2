// GET /metrics: the registry in Prometheus' text format. A plain Fastify route, outside Nest's
// controllers, so no API key guard or rate limit applies; GATEWAY_METRICS_TOKEN guards it instead.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { ApiError } from '../../common/api-error';

export const METRICS_PATH = '/metrics';

export function serveMetrics(fastify: FastifyInstance, registry: Registry, token: string | null): void {
  const expected = token === null ? null : Buffer.from(`Bearer ${token}`);
  fastify.get(METRICS_PATH, async (request, reply) => {
    if (expected !== null && !authorized(request.headers.authorization, expected)) {
      const error = new ApiError(401, 'invalid_metrics_token', 'Metrics need `Authorization: Bearer <GATEWAY_METRICS_TOKEN>`.', 'authentication_error');
      return reply.code(401).header('www-authenticate', 'Bearer').send(error.toBody());
    }
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
}

function authorized(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
