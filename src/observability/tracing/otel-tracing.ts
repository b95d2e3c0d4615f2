// Loaded only when tracing is on (tracing.ts): the SDK, the OTLP/HTTP JSON exporter, W3C trace
// context, and an AsyncLocalStorage context manager so child spans find their request's span.
import { context, diag, propagation, trace, type DiagLogger, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider,
  type Sampler, type SpanExporter,
} from '@opentelemetry/sdk-trace';
import type { GatewayLog } from '../../common/gateway-log';
import { requestAttributes } from './genai-attributes';
import { RequestSpans } from './request-spans';
import { attemptSpans, servedBy } from './attempt-spans';
import { chargeSpans, TracedRateLimiter, upstreamCallSpans } from './runtime-spans';
import { endSpan } from './span-end';
import type { StepSpan } from './step-span';
import type { GatewayTracing } from './gateway-tracing';
import type { SamplerSetting, TracingSettings } from './tracing-env';

const SCOPE = 'inference-gateway';

/** `log`: where the SDK's own complaints go (context `opentelemetry`). */
export function createOtelTracing(settings: TracingSettings, log: GatewayLog): GatewayTracing {
  diag.setLogger(diagToLog(log));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) override the default name.
  const resource = resourceFromAttributes({ 'service.name': SCOPE }).merge(detectResources({ detectors: [envDetector] }));
  // The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION itself.
  const exporter = new OTLPTraceExporter() as unknown as SpanExporter;
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(settings.sampler),
    spanProcessors: [new BatchSpanProcessor({ exporter, ...settings.batch })],
  });
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer(SCOPE);
  const requests = new RequestSpans(tracer);
  const step = (span: Span): StepSpan => ({ end: (failure?: unknown) => endSpan(span, failure) });
  return {
    instrumentServer: (fastify) => requests.instrument(fastify),
    openRequest: (raw, requestId) => requests.open(raw, requestId).span.spanContext().traceId,
    tracedRateLimiter: (inner) => new TracedRateLimiter(inner, tracer),
    upstreamCalls: upstreamCallSpans(tracer),
    attempts: [attemptSpans(tracer), servedBy],
    charges: chargeSpans(tracer, requests),
    validation(dto) {
      trace.getActiveSpan()?.setAttributes(requestAttributes(dto));
      return step(tracer.startSpan('validation'));
    },
    media: (binary) => step(tracer.startSpan(`media ${binary}`, { attributes: { 'process.executable.name': binary } })),
    flush: () => provider.forceFlush(),
  };
}

function samplerOf(setting: SamplerSetting): Sampler {
  switch (setting.kind) {
    case 'always_on': return new AlwaysOnSampler();
    case 'always_off': return new AlwaysOffSampler();
    case 'traceidratio': return new TraceIdRatioBasedSampler(setting.ratio);
    case 'parentbased_always_on': return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(setting.ratio) });
  }
}

/** The SDK's own complaints (an unreachable collector) as JSON log lines, not silence. */
function diagToLog(log: GatewayLog): DiagLogger {
  const write = (level: 'error' | 'warn') => (message: string, ...args: unknown[]) =>
    log[level]({ details: args.map((arg) => (arg instanceof Error ? arg.message : String(arg))) }, message);
  const ignore = () => undefined;
  return { error: write('error'), warn: write('warn'), info: ignore, debug: ignore, verbose: ignore };
}
