// The gateway's tracing switch. Off (the default) it is null: no OpenTelemetry module is loaded and
// the runtime's parts are built without a tracer, so the hot path makes no span, context or header
// object. On (OTEL_* variables, see tracing-env.ts) buildRuntime loads the SDK once, lazily, by
// initTracing(), and builds the traced parts from it (the composition root; nothing reads it globally).
import { SILENT_LOG, type GatewayLog } from '../../common/gateway-log';
import type { GatewayTracing } from './gateway-tracing';
import { tracingSettingsFrom } from './tracing-env';

let loading: Promise<GatewayTracing | null> | null = null;

/**
 * Reads the OTEL_* environment once per process; loads the SDK only when it turns tracing on. `log`
 * (context `opentelemetry`) hears the SDK's complaints: the first call's, as the SDK's diag is global.
 */
export function initTracing(log: GatewayLog = SILENT_LOG, env: NodeJS.ProcessEnv = process.env): Promise<GatewayTracing | null> {
  loading ??= (async () => {
    const settings = tracingSettingsFrom(env);
    if (!settings) return null;
    const { createOtelTracing } = await import('./otel-tracing');
    return createOtelTracing(settings, log);
  })();
  return loading;
}
