import { Registry } from 'prom-client';
import { ActivityMetrics } from './activity-metrics';

async function valueOf(registry: Registry, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const values = (await registry.getMetricsAsJSON()).flatMap((m) => m.values.map((v) => ({ ...v, name: (v as { metricName?: string }).metricName ?? m.name })));
  return values.find((v) => v.name === name && Object.entries(labels).every(([k, value]) => v.labels[k] === value))?.value;
}

describe('ActivityMetrics', () => {
  let registry: Registry;
  let metrics: ActivityMetrics;
  beforeEach(() => {
    registry = new Registry();
    metrics = new ActivityMetrics(registry, new Set(['org-a']));
  });

  it('sums whole micros exactly up to 2^53 (the float64 counter holds every integer below it)', async () => {
    const big = 2 ** 52 + 1;
    metrics.charged('aria', '/v1/chat/completions', big, false);
    metrics.charged('aria', '/v1/chat/completions', 3, false);
    metrics.charged('aria', '/v1/chat/completions', 2 ** 52 - 5, false);
    const total = await valueOf(registry, 'gateway_billing_cost_usd_micros_total', { model: 'aria', endpoint: '/v1/chat/completions' });
    expect(total).toBe(2 ** 53 - 1);
    expect(BigInt(total!)).toBe(BigInt(big) + 3n + BigInt(2 ** 52 - 5));
    expect(await valueOf(registry, 'gateway_billing_charged_requests_total', { model: 'aria' })).toBe(3);
  });

  it('counts an unpriced charge as a request without cost, and a disputed one as disputed', async () => {
    metrics.charged('rhythm', '/v1/audio/transcriptions', null, true);
    expect(await valueOf(registry, 'gateway_billing_charged_requests_total', { model: 'rhythm' })).toBe(1);
    expect(await valueOf(registry, 'gateway_billing_cost_usd_micros_total', { model: 'rhythm' })).toBe(0);
    expect(await valueOf(registry, 'gateway_billing_disputed_usages_total', { model: 'rhythm', endpoint: '/v1/audio/transcriptions' })).toBe(1);
  });

  it("counts every commit in the batch histogram and the main thread's among them as inline", async () => {
    metrics.committed(1, true);
    metrics.committed(12, false);
    metrics.committed(2, true);
    expect(await valueOf(registry, 'gateway_event_store_commit_batch_size_count', {})).toBe(3);
    expect(await valueOf(registry, 'gateway_event_store_inline_commits_total', {})).toBe(2);
  });

  it('labels refusals with configured organizations only; any other id is `other`', async () => {
    metrics.refusal('org-a', 'rate_limited');
    metrics.refusal('org-unknown-1', 'rate_limited');
    metrics.refusal('org-unknown-2', 'rate_limited');
    expect(await valueOf(registry, 'gateway_refusals_total', { organization: 'org-a', reason: 'rate_limited' })).toBe(1);
    expect(await valueOf(registry, 'gateway_refusals_total', { organization: 'other', reason: 'rate_limited' })).toBe(2);
    const series = (await registry.getMetricsAsJSON()).find((m) => m.name === 'gateway_refusals_total')!.values;
    expect(series).toHaveLength(2);
  });

  it('counts upstream calls per model and outcome with their latency', async () => {
    metrics.upstreamCall('aria', 'ok', 0.02);
    metrics.upstreamCall('aria', 'upstream_timeout', 3);
    expect(await valueOf(registry, 'gateway_upstream_requests_total', { model: 'aria', outcome: 'upstream_timeout' })).toBe(1);
    expect(await valueOf(registry, 'gateway_upstream_request_duration_seconds_count', { model: 'aria' })).toBe(2);
    expect(await valueOf(registry, 'gateway_upstream_request_duration_seconds_sum', { model: 'aria' })).toBeCloseTo(3.02, 10);
  });
});
