// The server span of every request: opened from the client's traceparent (when it sent one) as
// Fastify makes the request's logger, so even its first log line has the trace id; named after the
// route and made the active context in onRequest; ended when the response closes (a stream's last
// byte, or the client going away). Only installed when tracing is on.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY, GEN_AI, operationOf } from './genai-attributes';
import { endSpan } from './span-end';
import { correlationIdOf, type TracedRequest } from '../logging/request-log-fields';

interface InFlight {
  span: Span;
  context: Context;
}

/**
 * How long an answered request stays known: a stream the client left is billed (and may log) after
 * its response closed, and that work belongs in the request's trace all the same.
 */
const LINGER_MS = 10_000;

export class RequestSpans {
  private readonly inFlight = new Map<string, InFlight>();
  /** Answered requests, by their span's context only (a few dozen bytes each), in two generations. */
  private ended = new Map<string, InFlight>();
  private endedBefore = new Map<string, InFlight>();

  constructor(private readonly tracer: Tracer) {
    setInterval(() => {
      this.endedBefore = this.ended;
      this.ended = new Map();
    }, LINGER_MS).unref();
  }

  instrument(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (request, reply, done) => {
      const active = this.inFlight.get(request.id) ?? this.open(request.raw, request.id);
      this.describe(active.span, request);
      // Log lines written outside the request's logger (billing, stream relays) carry it from here.
      (request as TracedRequest).traceId = active.span.spanContext().traceId;
      reply.raw.once('close', () => this.finish(request.id, reply.raw));
      // Body parsing resumes the request from the socket's events: binding the request's emitter
      // carries the context through it into the handler (and every await the handler makes).
      context.bind(active.context, request.raw);
      context.with(active.context, done);
    });
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const active = this.inFlight.get(request.id);
      if (active && isStream(payload)) markFirstWrite(reply.raw, active.span, reply);
      done(null, payload);
    });
    // A request answered by an earlier onRequest hook never reaches the one above; its span ends here.
    fastify.addHook('onResponse', (request, reply, done) => {
      this.finish(request.id, reply.raw);
      done();
    });
  }

  /**
   * The request's span and context, for work that runs outside its async context (a stream's end).
   * Once answered, a span that only carries the ids: attributes set on it go nowhere.
   */
  of(requestId: string): InFlight | undefined {
    return this.inFlight.get(requestId) ?? this.ended.get(requestId) ?? this.endedBefore.get(requestId);
  }

  traceIdOf(requestId: string): string | undefined {
    return this.of(requestId)?.span.spanContext().traceId;
  }

  /** Starts the request's span (before routing is known); returns its trace id. */
  open(raw: IncomingMessage, requestId: string): InFlight {
    const parent = propagation.extract(ROOT_CONTEXT, raw.headers);
    const span = this.tracer.startSpan(raw.method ?? 'HTTP', { kind: SpanKind.SERVER, attributes: { [GATEWAY.requestId]: requestId } }, parent);
    const active = { span, context: trace.setSpan(parent, span) };
    this.inFlight.set(requestId, active);
    return active;
  }

  /** Names the span after the route (`POST /v1/chat/completions`) and adds the HTTP attributes. */
  private describe(span: Span, request: FastifyRequest): void {
    const route = request.routeOptions.url;
    const operation = operationOf(route);
    const correlation = correlationIdOf(request.headers);
    if (route) span.updateName(`${request.method} ${route}`).setAttribute('http.route', route);
    if (operation) span.setAttribute(GEN_AI.operation, operation);
    if (correlation !== null) span.setAttribute(GATEWAY.correlationId, correlation);
    span.setAttributes({ 'http.request.method': request.method, 'url.path': request.url.split('?', 1)[0], 'url.scheme': 'http' });
  }

  private finish(requestId: string, response: ServerResponse): void {
    const active = this.inFlight.get(requestId);
    if (!active) return;
    this.inFlight.delete(requestId);
    const ids = trace.wrapSpanContext(active.span.spanContext());
    this.ended.set(requestId, { span: ids, context: trace.setSpan(ROOT_CONTEXT, ids) });
    active.span.setAttribute('http.response.status_code', response.statusCode);
    if (!response.writableFinished) {
      active.span.setAttribute('gateway.client_aborted', true);
      endSpan(active.span, 'client_closed_request');
    } else {
      endSpan(active.span, response.statusCode >= 500 ? String(response.statusCode) : undefined);
    }
  }
}

const isStream = (payload: unknown) => typeof payload === 'object' && payload !== null && typeof (payload as { pipe?: unknown }).pipe === 'function';

/** Time to first chunk of a streamed answer: Fastify pipes the stream into the response, so its first write. */
function markFirstWrite(response: ServerResponse, span: Span, reply: FastifyReply): void {
  const write = response.write;
  response.write = function firstWrite(this: ServerResponse, ...args: unknown[]) {
    response.write = write;
    span.setAttribute(GEN_AI.timeToFirstChunk, reply.elapsedTime / 1000);
    span.addEvent('gen_ai.first_chunk');
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as ServerResponse['write'];
}
