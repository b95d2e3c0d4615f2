// Child spans of a request around the runtime parts it goes through: admission (the durable
// RequestAdmitted append), the upstream call (which carries the span's traceparent to the model
// server) and the billing append. buildRuntime gives them to those parts at construction, and only
// when tracing is on, so the code paths of a gateway without tracing are untouched.
import { context, propagation, SpanKind, trace, type Context, type Tracer } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import type { ChargeInput, ChargeTracer } from '../../billing/billing.service';
import type { Usage } from '../../billing/usage';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { UpstreamCallTracer, UpstreamRequest } from '../../upstream/upstream.client';
import type { CallerContext } from '../../access/access.types';
import { RateLimiter, type AdmissionDecision } from '../../rate-limits/rate-limiter.port';
import { GATEWAY, GEN_AI, operationOf, providerOf, usageAttributes } from './genai-attributes';
import type { RequestSpans } from './request-spans';
import { endSpan } from './span-end';

/** The `admission` span around a rate limiter's decision (a decorator, like RefusalCountingRateLimiter). */
export class TracedRateLimiter extends RateLimiter {
  constructor(
    private readonly inner: RateLimiter,
    private readonly tracer: Tracer,
  ) {
    super();
  }

  async admit(caller: CallerContext, requestId: string, endpoint: string): Promise<AdmissionDecision> {
    trace.getActiveSpan()?.setAttribute(GATEWAY.organizationId, caller.organizationId);
    const span = this.tracer.startSpan('admission', { attributes: { [GATEWAY.organizationId]: caller.organizationId } });
    try {
      const decision = await context.with(trace.setSpan(context.active(), span), () => this.inner.admit(caller, requestId, endpoint));
      span.setAttributes({ [GATEWAY.admitted]: decision.admitted, 'gateway.rate_limit.remaining': decision.remaining });
      endSpan(span, decision.admitted ? undefined : 'rate_limit_exceeded');
      return decision;
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
  }
}

/** The client span of each upstream call; its context travels in the request's headers. */
export function upstreamCallSpans(tracer: Tracer): UpstreamCallTracer {
  return {
    async call(model: CatalogModel, req: UpstreamRequest, send: (req: UpstreamRequest) => Promise<Dispatcher.ResponseData>) {
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
        const response = await context.with(spanContext, () => send(Object.assign({}, req, { headers })));
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
    },
  };
}

/** The `billing` span of each charge, with the usage on it and on its request's span. */
export function chargeSpans(tracer: Tracer, requests: RequestSpans): ChargeTracer {
  return {
    async charge<R extends { usage: Usage }>(input: ChargeInput, run: () => Promise<R>): Promise<R> {
      // A stream is billed when it ends, which may be outside the request's async context.
      const request = requests.of(input.ctx.requestId);
      const parent: Context = request?.context ?? context.active();
      const span = tracer.startSpan('billing', { attributes: { [GATEWAY.endpoint]: input.endpoint, [GATEWAY.organizationId]: input.ctx.caller.organizationId } }, parent);
      try {
        const result = await context.with(trace.setSpan(parent, span), run);
        const usage = usageAttributes(result.usage);
        span.setAttributes(usage);
        trace.getSpan(parent)?.setAttributes(usage).setAttribute(GEN_AI.responseModel, input.model.id).setAttribute(GATEWAY.organizationId, input.ctx.caller.organizationId);
        endSpan(span);
        return result;
      } catch (error) {
        endSpan(span, error);
        throw error;
      }
    },
  };
}
