import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import Fastify from 'fastify';
import { RequestSpans } from './request-spans';

describe('RequestSpans (server spans on a Fastify instance)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const requests = new RequestSpans(provider.getTracer('test'));
  const app = Fastify();
  let url = '';
  let lastRequestId = '';
  const send = (path: string, init: RequestInit = {}) => fetch(`${url}${path}`, init);
  const postJson = (body: unknown, headers: Record<string, string> = {}) =>
    send('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  /** The server ends a span when its response has gone out, which the client may see first. */
  const finished = async (count: number) => {
    for (let i = 0; i < 200 && exporter.getFinishedSpans().length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    return exporter.getFinishedSpans();
  };

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    requests.instrument(app);
    app.post('/v1/chat/completions', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      // The handler runs in the request's context, body parsing and awaits included.
      return { active: trace.getActiveSpan()?.spanContext().spanId ?? null, echoed: request.body };
    });
    app.get('/unavailable', async (_request, reply) => reply.code(503).send({}));
    app.addHook('onRequest', (request, _reply, done) => {
      lastRequestId = request.id;
      done();
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => exporter.reset());

  it("names the span after the route, makes it the handler's active span and ends it with the status", async () => {
    const response = await send('/v1/chat/completions?api_key=x', { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'corr-7' }, body: '{"model":"aria"}' });
    const body = await response.json();
    const [span] = await finished(1);
    expect(span.name).toBe('POST /v1/chat/completions');
    expect(body).toEqual({ active: span.spanContext().spanId, echoed: { model: 'aria' } });
    expect(span.attributes).toMatchObject({
      'http.route': '/v1/chat/completions', 'url.path': '/v1/chat/completions', 'http.response.status_code': 200,
      'gen_ai.operation.name': 'chat', 'gateway.correlation_id': 'corr-7', 'gateway.request_id': lastRequestId,
    });
  });

  it("continues the client's trace", async () => {
    await (await postJson({}, { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).text();
    const [span] = await finished(1);
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  });

  it('names a request that matches no route by its method, and marks a 5xx failed', async () => {
    await (await send('/nowhere')).text();
    await (await send('/unavailable')).text();
    expect((await finished(2)).map((span) => [span.name, span.attributes['http.response.status_code'], span.status.code])).toEqual([
      ['GET', 404, 0],
      ['GET /unavailable', 503, 2],
    ]);
  });

  it('still knows an answered request for a while, so work after the response (a stream billed late) stays in its trace', async () => {
    await (await postJson({})).text();
    const requestId = lastRequestId;
    const [span] = await finished(1);
    expect(requests.traceIdOf(requestId)).toBe(span.spanContext().traceId);
    expect(trace.getSpan(requests.of(requestId)!.context)!.spanContext().spanId).toBe(span.spanContext().spanId);
    expect(requests.traceIdOf('never-seen')).toBeUndefined();
    expect(trace.getSpan(ROOT_CONTEXT)).toBeUndefined();
  });
});
