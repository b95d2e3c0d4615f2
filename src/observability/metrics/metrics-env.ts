// The environment switches of /metrics (docs/observability.md "Metrics"): on unless GATEWAY_METRICS
// turns them off, and protected by a bearer token when GATEWAY_METRICS_TOKEN is set.
import { onOffSwitch } from '../../common/on-off-switch';

export interface MetricsEnv {
  enabled: boolean;
  /** Scrapers must send `Authorization: Bearer <token>` when set. */
  token: string | null;
}

/** Anything but a known on/off word stops the start-up: a typo must not silently drop the metrics. */
export function readMetricsEnv(env: NodeJS.ProcessEnv = process.env): MetricsEnv {
  const token = env.GATEWAY_METRICS_TOKEN ?? '';
  return { enabled: onOffSwitch(env, 'GATEWAY_METRICS'), token: token === '' ? null : token };
}
