// The gateway's tracing switch. Off (the default) it is a null the hot path tests once per call
// site: no OpenTelemetry module is loaded and no span, context or header object is made. On
// (OTEL_* variables, see tracing-env.ts) the SDK is loaded once, lazily, by initTracing().
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { GatewayRuntime } from '../../core/gateway-runtime';
import { tracingSettingsFrom } from './tracing-env';

/** A child span of the current request, ended by the code that started it. */
export interface StepSpan {
  /** `failure`: why the step failed (an error or a short reason); omitted when it succeeded. */
  end(failure?: unknown): void;
}

export interface GatewayTracing {
  /** One server span per request, from a client's `traceparent` when it sent one. */
  instrumentServer(fastify: FastifyInstance): void;
  /** Opens the request's span as Fastify creates its logger; returns the trace id the logger binds. */
  openRequest(raw: IncomingMessage, requestId: string): string;
  /** Spans around admission, upstream calls and billing, by wrapping those parts of the runtime. */
  instrumentRuntime(runtime: GatewayRuntime): void;
  /** Request validation; the validated DTO's model and parameters annotate the request's span. */
  validation(dto: object): StepSpan;
  /** One ffmpeg/ffprobe run. */
  media(binary: string): StepSpan;
  /** The trace a request belongs to while it is in flight (log lines carry it). */
  traceIdOf(requestId: string): string | undefined;
  /** Exports what is buffered (shutdown, tests). */
  flush(): Promise<void>;
}

let active: GatewayTracing | null = null;
let loading: Promise<GatewayTracing | null> | null = null;

/** The tracer when tracing is on, else null. */
export function tracing(): GatewayTracing | null {
  return active;
}

/** Reads the OTEL_* environment once per process; loads the SDK only when it turns tracing on. */
export function initTracing(env: NodeJS.ProcessEnv = process.env): Promise<GatewayTracing | null> {
  loading ??= (async () => {
    const settings = tracingSettingsFrom(env);
    if (!settings) return null;
    const { createOtelTracing } = await import('./otel-tracing');
    active = createOtelTracing(settings);
    return active;
  })();
  return loading;
}

/** `work`, ending `step` when it settles; `failureOf` names a failure a fulfilled result stands for. */
export function endStepWhenSettled<T>(step: StepSpan, work: Promise<T>, failureOf: (result: T) => string | undefined): Promise<T> {
  return work.then(
    (result) => {
      step.end(failureOf(result));
      return result;
    },
    (error: unknown) => {
      step.end(error);
      throw error;
    },
  );
}
