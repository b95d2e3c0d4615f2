// The routing tests' model: `aria` copied as MODEL and served by one deployment per simulator, each with the
// test's cost of goods; probes every 200 ms, so a deployment back from cold is warm again (2 good probes) within
// a test. Probes ask for a model name of their own (`probe-<i>`), so a test breaks requests and probes apart.
import type { DeploymentConfig, PricingMetadata } from '../../../src/catalog/catalog.types';
import type { GatewayConfig } from '../../../src/config/gateway-config';

export const MODEL = 'aria-routed';

/** The deployments' cost of goods, in whole micros per unit, so a test works the expected cost out with integers alone. */
export const COST: PricingMetadata = {
  input: { text: { tokens: '0', cached_tokens: '0' }, audio: { tokens: '0.000003' }, image: { tokens: '0.000001' }, video: { tokens: '0.000001' } },
  output: { text: { tokens: '0.000001' }, audio: { tokens: '0.000004' } },
  request: '0',
  web_search: '0.002',
  internal_reasoning: '0.000002',
};

export function addRoutedModel(config: GatewayConfig, simulatorUrls: string[], cost: PricingMetadata): void {
  const aria = config.models.find((m) => m.id === 'aria')!;
  const deployments: DeploymentConfig[] = simulatorUrls.map((url, i) => ({
    id: `sim-${i}`,
    base_url: `${url}/v1`,
    health_url: `${url}/health?model=probe-${i}`,
    api_key: 'sim-key',
    timeout_ms: 10_000,
    cold_start_seconds: 7,
    weight: 1,
    max_concurrency: null,
    cost,
  }));
  config.probe = { ...config.probe, interval_ms: 200, stale_after_intervals: 50 };
  config.models.push({ ...aria, id: MODEL, canonical_slug: `gateway/${MODEL}`, deployments, upstream: { ...aria.upstream, max_concurrency: null } });
}

/** Runs `task` `count` times, `width` at a time (the routing tests' load). */
export async function inParallel(count: number, width: number, task: () => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) {
      next += 1;
      await task();
    }
  }));
}
