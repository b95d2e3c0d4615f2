// The environment switches of /metrics (docs/observability.md "Metrics"): on unless GATEWAY_METRICS
// turns them off, and protected by a bearer token when GATEWAY_METRICS_TOKEN is set.

export interface MetricsEnv {
  enabled: boolean;
  /** Scrapers must send `Authorization: Bearer <token>` when set. */
  token: string | null;
}

const OFF = new Set(['off', 'false', '0', 'no']);
const ON = new Set(['on', 'true', '1', 'yes', '']);

/** Anything but a known on/off word stops the start-up: a typo must not silently drop the metrics. */
export function readMetricsEnv(env: NodeJS.ProcessEnv = process.env): MetricsEnv {
  const switchValue = (env.GATEWAY_METRICS ?? '').trim().toLowerCase();
  if (!OFF.has(switchValue) && !ON.has(switchValue)) {
    throw new Error(`GATEWAY_METRICS must be 'on' or 'off'; got '${env.GATEWAY_METRICS}'`);
  }
  const token = env.GATEWAY_METRICS_TOKEN ?? '';
  return { enabled: !OFF.has(switchValue), token: token === '' ? null : token };
}
