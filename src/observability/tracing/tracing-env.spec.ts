import { samplerFrom, tracingSettingsFrom } from './tracing-env';

describe('tracingSettingsFrom (which OTEL_* variables turn tracing on)', () => {
  it('is off with no OTEL_* variable at all', () => {
    expect(tracingSettingsFrom({})).toBeNull();
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }],
    [{ OTEL_TRACES_EXPORTER: 'console, otlp' }],
  ])('is on with %j', (env) => {
    expect(tracingSettingsFrom(env)).toEqual({ sampler: { kind: 'parentbased_always_on' }, batch: {} });
  });

  it.each([
    [{ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }],
    [{ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }],
    [{ OTEL_TRACES_EXPORTER: 'console', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }],
    [{ OTEL_SERVICE_NAME: 'gateway' }],
  ])('is off with %j', (env) => {
    expect(tracingSettingsFrom(env)).toBeNull();
  });

  it('leaves OTEL_SDK_DISABLED=false as not disabled', () => {
    expect(tracingSettingsFrom({ OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' })).not.toBeNull();
  });

  it('accepts http/json and refuses the encodings this exporter does not send', () => {
    expect(tracingSettingsFrom({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' })).not.toBeNull();
    expect(() => tracingSettingsFrom({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toThrow(/http\/json/);
    expect(() => tracingSettingsFrom({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toThrow(/http\/json/);
  });

  it('reads the batch processor settings, refusing what is not a positive integer', () => {
    expect(tracingSettingsFrom({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1' })!.batch)
      .toEqual({ scheduledDelayMillis: 100, maxExportBatchSize: 1 });
    expect(() => tracingSettingsFrom({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_BSP_SCHEDULE_DELAY: '0' })).toThrow(/OTEL_BSP_SCHEDULE_DELAY/);
    expect(() => tracingSettingsFrom({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_BSP_MAX_QUEUE_SIZE: '1.5' })).toThrow(/OTEL_BSP_MAX_QUEUE_SIZE/);
  });
});

describe('samplerFrom (OTEL_TRACES_SAMPLER / _ARG)', () => {
  it('defaults to parentbased_always_on, as the specification does', () => {
    expect(samplerFrom(undefined, undefined)).toEqual({ kind: 'parentbased_always_on' });
  });

  it('takes a ratio from 0 to 1 inclusive, 1 when the argument is missing', () => {
    expect(samplerFrom('traceidratio', '0')).toEqual({ kind: 'traceidratio', ratio: 0 });
    expect(samplerFrom('parentbased_traceidratio', '1')).toEqual({ kind: 'parentbased_traceidratio', ratio: 1 });
    expect(samplerFrom('traceidratio', undefined)).toEqual({ kind: 'traceidratio', ratio: 1 });
    expect(() => samplerFrom('traceidratio', '1.01')).toThrow(/ratio/);
    expect(() => samplerFrom('traceidratio', '-0.1')).toThrow(/ratio/);
    expect(() => samplerFrom('traceidratio', 'half')).toThrow(/ratio/);
  });

  it('refuses an unknown sampler rather than guessing', () => {
    expect(samplerFrom('ALWAYS_OFF', undefined)).toEqual({ kind: 'always_off' });
    expect(() => samplerFrom('jaeger_remote', undefined)).toThrow(/OTEL_TRACES_SAMPLER/);
  });
});
