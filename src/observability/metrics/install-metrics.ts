// The HTTP side of the metrics: GET /metrics and the request hooks; nothing at all when they are off.
import type { FastifyInstance } from 'fastify';
import type { GatewayRuntime } from '../../core/gateway-runtime';
import { recordHttpMetrics } from './http-hooks';
import { serveMetrics } from './metrics-route';

export function installMetrics(fastify: FastifyInstance, runtime: GatewayRuntime): void {
  if (!runtime.metrics) return;
  serveMetrics(fastify, runtime.metrics.registry, runtime.env.metrics.token);
  recordHttpMetrics(fastify, runtime.metrics.http);
}
