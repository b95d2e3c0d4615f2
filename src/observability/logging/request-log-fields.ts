// The ids every log line about a request carries: the gateway's request id, the client's own
// x-request-id as correlation id (when it sent one), and the trace id (when tracing is on).
import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { lazyRequestLogger } from './lazy-request-logger';

export interface RequestLogIds {
  requestId: string;
  correlationId?: string;
  traceId?: string;
}

/** A request whose server span the tracer opened carries its trace id (RequestSpans, only when tracing is on). */
export interface TracedRequest {
  traceId?: string;
}

/** Opens a request's server span as its logger is made; returns the trace id (GatewayTracing.openRequest). */
export type OpenRequestSpan = (raw: IncomingMessage, requestId: string) => string;

export const MAX_CORRELATION_CHARS = 200;

export function correlationIdOf(headers: IncomingMessage['headers']): string | null {
  const value = headers['x-request-id'];
  return typeof value === 'string' ? value.slice(0, MAX_CORRELATION_CHARS) : null;
}

/** The ids of a request known by its RequestContext, merged with the line's own fields. */
export function requestLogFields<T extends object>(ids: { requestId: string; correlationId: string | null; traceId?: string }, fields: T): RequestLogIds & T {
  const line: RequestLogIds = { requestId: ids.requestId };
  if (ids.correlationId !== null) line.correlationId = ids.correlationId;
  if (ids.traceId !== undefined) line.traceId = ids.traceId;
  return Object.assign(line, fields);
}

/** The same for a Fastify request (before or without a RequestContext: errors, refusals). */
export function requestLogFieldsOf<T extends object>(request: FastifyRequest, fields: T): RequestLogIds & T {
  return requestLogFields({ requestId: request.id, correlationId: correlationIdOf(request.headers), traceId: (request as TracedRequest).traceId }, fields);
}

/**
 * Fastify's per-request child logger (bound to `requestId`), also bound to the correlation id when
 * the client sent one and to the trace id when tracing is on (`openRequest` given); made lazily
 * (lazy-request-logger.ts).
 */
export function childLoggerWithCorrelation(openRequest: OpenRequestSpan | null): NonNullable<FastifyServerOptions['childLoggerFactory']> {
  return function childLogger(logger: FastifyBaseLogger, bindings, options, raw) {
    const fields = bindings as Record<string, unknown>;
    const correlationId = correlationIdOf(raw.headers);
    if (correlationId !== null) fields.correlationId = correlationId;
    if (openRequest) fields.traceId = openRequest(raw, fields.requestId as string);
    return lazyRequestLogger(logger, bindings, options);
  };
}
