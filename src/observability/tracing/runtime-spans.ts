// Child spans of a request around the runtime parts it goes through: admission (the durable
// RequestAdmitted append), the upstream call (which carries the span's traceparent to the model
// server) and the billing append. The parts are wrapped once at start-up, and only when tracing is
// on, so the code paths of a gateway without tracing are untouched.
import { context, propagation, SpanKind, trace, type Context, type Tracer } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import type { ChargeInput } from '../../billing/billing.service';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { GatewayRuntime } from '../../core/gateway-runtime';
import type { UpstreamRequest } from '../../upstream/upstream.client';
import type { CallerContext } from '../../access/access.types';
import { GATEWAY, GEN_AI, operationOf, providerOf, usageAttributes } from './genai-attributes';
import type { RequestSpans } from './request-spans';
import { endSpan } from './span-end';
import { attemptSpans, servedBy } from './attempt-spans';

const instrumented = new WeakSet<GatewayRuntime>();

export function instrumentRuntime(runtime: GatewayRuntime, tracer: Tracer, requests: RequestSpans): void {
  if (instrumented.has(runtime)) return;
  instrumented.add(runtime);
  traceAdmission(runtime, tracer);
  traceUpstream(runtime, tracer);
  runtime.upstream.router.listen(attemptSpans(tracer));
  runtime.upstream.router.listen(servedBy);
  traceBilling(runtime, tracer, requests);
}

function traceAdmission({ rateLimiter }: GatewayRuntime, tracer: Tracer): void {
  const admit = rateLimiter.admit.bind(rateLimiter);
  rateLimiter.admit = async (caller: CallerContext, requestId: string, endpoint: string) => {
    trace.getActiveSpan()?.setAttribute(GATEWAY.organizationId, caller.organizationId);
    const span = tracer.startSpan('admission', { attributes: { [GATEWAY.organizationId]: caller.organizationId } });
    try {
      const decision = await context.with(trace.setSpan(context.active(), span), () => admit(caller, requestId, endpoint));
      span.setAttributes({ [GATEWAY.admitted]: decision.admitted, 'gateway.rate_limit.remaining': decision.remaining });
      endSpan(span, decision.admitted ? undefined : 'rate_limit_exceeded');
      return decision;
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
  };
}

function traceUpstream({ upstream }: GatewayRuntime, tracer: Tracer): void {
  const send = upstream.send.bind(upstream);
  upstream.send = async (model: CatalogModel, req: UpstreamRequest): Promise<Dispatcher.ResponseData> => {
    const parent = context.active();
    const operation = operationOf(req.path) ?? 'call';
    const upstreamModel = model.upstream.model ?? model.id;
    const url = new URL(model.upstream.base_url);
    const provider = providerOf(model.upstream.dialect);
    const span = tracer.startSpan(`${operation} ${upstreamModel}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        [GEN_AI.operation]: operation,
        [GEN_AI.provider]: provider,
        [GEN_AI.requestModel]: upstreamModel,
        'http.request.method': req.method ?? 'POST',
        'server.address': url.hostname,
        'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
        'url.path': `${url.pathname.replace(/\/$/, '')}${req.path}`,
      },
    }, parent);
    trace.getSpan(parent)?.setAttribute(GEN_AI.provider, provider);
    const spanContext = trace.setSpan(parent, span);
    const headers: Record<string, string> = Object.assign({}, req.headers);
    propagation.inject(spanContext, headers);
    try {
      const response = await context.with(spanContext, () => send(model, Object.assign({}, req, { headers })));
      span.setAttribute('http.response.status_code', response.statusCode);
      // The call lasts until its answer is read (a stream: until the upstream's last event).
      response.body.once('close', () => endSpan(span, response.body.errored ?? undefined));
      return response;
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== undefined) span.setAttribute('gateway.error_status', status);
      endSpan(span, error);
      throw error;
    }
  };
}

function traceBilling({ billing }: GatewayRuntime, tracer: Tracer, requests: RequestSpans): void {
  const chargeMetered = billing.chargeMetered.bind(billing);
  billing.chargeMetered = async (input: ChargeInput) => {
    // A stream is billed when it ends, which may be outside the request's async context.
    const request = requests.of(input.ctx.requestId);
    const parent: Context = request?.context ?? context.active();
    const span = tracer.startSpan('billing', { attributes: { [GATEWAY.endpoint]: input.endpoint, [GATEWAY.organizationId]: input.ctx.caller.organizationId } }, parent);
    try {
      const result = await context.with(trace.setSpan(parent, span), () => chargeMetered(input));
      const usage = usageAttributes(result.usage);
      span.setAttributes(usage);
      trace.getSpan(parent)?.setAttributes(usage).setAttribute(GEN_AI.responseModel, input.model.id).setAttribute(GATEWAY.organizationId, input.ctx.caller.organizationId);
      endSpan(span);
      return result;
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
  };
}
