// What the gateway traces, as a port: built by otel-tracing.ts when tracing is on (tracing.ts loads
// it), handed by the composition root (build-runtime.ts) to the parts that open spans.
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { RateLimiter } from '../../rate-limits/rate-limiter.port';
import type { ChargeTracer } from '../../billing/billing.service';
import type { UpstreamCallTracer } from '../../upstream/upstream.client';
import type { RoutingListener } from '../../routing/router';
import type { MediaSpans, ValidationSpans } from './step-span';

export interface GatewayTracing {
  /** One server span per request, from a client's `traceparent` when it sent one. */
  instrumentServer(fastify: FastifyInstance): void;
  /** Opens the request's span as Fastify creates its logger; returns the trace id the logger binds. */
  openRequest(raw: IncomingMessage, requestId: string): string;
  /** The admission span around a rate limiter (a decorator of it). */
  tracedRateLimiter(inner: RateLimiter): RateLimiter;
  /** The client span of an upstream call, carried to the model server in its traceparent. */
  upstreamCalls: UpstreamCallTracer;
  /** One span per upstream attempt, and the deployment that served on the call's span (routing). */
  attempts: RoutingListener[];
  /** The billing span of a charge, under its request's span even after the response ended. */
  charges: ChargeTracer;
  validation: ValidationSpans;
  media: MediaSpans;
  /** Exports what is buffered (shutdown, tests). */
  flush(): Promise<void>;
}
