// Which OTEL_* variables turn tracing on, read once at start-up (docs/observability.md, "Traces").
// Off unless an OTLP exporter is asked for: the SDK's own default (`otlp`) would make every
// gateway without a collector send spans to localhost:4318 and log export failures.

export type SamplerSetting =
  | { kind: 'always_on' | 'always_off' | 'parentbased_always_on' | 'parentbased_always_off' }
  | { kind: 'traceidratio' | 'parentbased_traceidratio'; ratio: number };

export interface BatchSettings {
  scheduledDelayMillis?: number;
  maxQueueSize?: number;
  maxExportBatchSize?: number;
  exportTimeoutMillis?: number;
}

export interface TracingSettings {
  sampler: SamplerSetting;
  /** The batch span processor's OTEL_BSP_* settings (the SDK's defaults where unset). */
  batch: BatchSettings;
}

const SAMPLERS = new Set(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio']);

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * Tracing settings, or null when tracing is off. On: OTEL_TRACES_EXPORTER lists `otlp`, or it is
 * unset and an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is
 * set. OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none always win.
 */
export function tracingSettingsFrom(env: NodeJS.ProcessEnv): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const exporters = isSet(env.OTEL_TRACES_EXPORTER) ? env.OTEL_TRACES_EXPORTER.split(',').map((name) => name.trim().toLowerCase()) : null;
  if (exporters?.includes('none')) return null;
  const wanted = exporters ? exporters.includes('otlp') : isSet(env.OTEL_EXPORTER_OTLP_ENDPOINT) || isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (!wanted) return null;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (isSet(protocol) && protocol.trim() !== 'http/json') {
    throw new Error(`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=${protocol}: the gateway exports traces as OTLP/HTTP with JSON ('http/json') only`);
  }
  return { sampler: samplerFrom(env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG), batch: batchFrom(env) };
}

const BATCH_VARIABLES: [keyof BatchSettings, string][] = [
  ['scheduledDelayMillis', 'OTEL_BSP_SCHEDULE_DELAY'],
  ['maxQueueSize', 'OTEL_BSP_MAX_QUEUE_SIZE'],
  ['maxExportBatchSize', 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE'],
  ['exportTimeoutMillis', 'OTEL_BSP_EXPORT_TIMEOUT'],
];

function batchFrom(env: NodeJS.ProcessEnv): BatchSettings {
  const batch: BatchSettings = {};
  for (const [field, variable] of BATCH_VARIABLES) {
    const raw = env[variable];
    if (!isSet(raw)) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${variable}=${raw}: expected a positive integer`);
    batch[field] = value;
  }
  return batch;
}

/** The spec's sampler variables; an unknown name is a start-up error, not a silent default. */
export function samplerFrom(name: string | undefined, arg: string | undefined): SamplerSetting {
  const kind = isSet(name) ? name.trim().toLowerCase() : 'parentbased_always_on';
  if (!SAMPLERS.has(kind)) throw new Error(`OTEL_TRACES_SAMPLER=${name}: expected one of ${[...SAMPLERS].join(', ')}`);
  if (kind !== 'traceidratio' && kind !== 'parentbased_traceidratio') return { kind } as SamplerSetting;
  const ratio = isSet(arg) ? Number(arg) : 1;
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw new Error(`OTEL_TRACES_SAMPLER_ARG=${arg}: expected a ratio from 0 to 1`);
  return { kind, ratio };
}
