// Every PromQL expression of deploy/grafana/gateway-dashboard.json reads only metrics the gateway
// exposes (names taken from a real registry, histograms with their _bucket/_sum/_count series).
import { GatewayMetrics } from '../../src/observability/metrics/gateway-metrics';
import { dashboardQueries, metricNamesIn } from './support/dashboard';

function exposedNames(): Set<string> {
  const metrics = new GatewayMetrics(['org-a']);
  metrics.watch({
    models: () => [],
    statusOf: () => undefined,
    inFlightOf: () => 0,
    spool: () => ({ spooled: 0, drained: 0, pending: 0, used_bytes: 0, capacity_bytes: 0, full: false }),
    parked: () => ({}),
    store: null as never,
    projections: [],
    relayLag: async () => ({ eventsBehind: 0, eventsBehindCapped: false, checkpoint: null, consecutiveFailures: 0, totalFailures: 0, lastError: null, publishedMessages: 0, parkedEvents: 0 }),
  });
  const names = new Set<string>();
  for (const metric of metrics.registry.getMetricsAsArray() as unknown as { name: string; type: string }[]) {
    names.add(metric.name);
    if (metric.type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

describe('Grafana dashboard', () => {
  const queries = dashboardQueries();
  const exposed = exposedNames();

  it('has the panels operators asked for', () => {
    const text = queries.map((q) => q.expr).join('\n');
    for (const metric of [
      'gateway_http_requests_total', 'gateway_http_request_duration_seconds_bucket', 'gateway_http_time_to_first_byte_seconds_bucket',
      'gateway_billing_cost_usd_micros_total', 'gateway_upstream_requests_total', 'gateway_kafka_relay_events_behind',
      'gateway_projection_events_behind', 'gateway_projection_parked_events', 'gateway_refusals_total',
    ]) expect(text).toContain(metric);
  });

  it.each(queries.map((q) => [q.panel, q.expr]))('%s reads only exposed metrics: %s', (_panel, expr) => {
    const names = metricNamesIn(expr);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('reads metric names the way PromQL does (labels, groupings, functions and durations are not names)', () => {
    expect(metricNamesIn('histogram_quantile(0.99, sum by (route, le) (rate(a_bucket{status=~"5..",x="b_total"}[$__rate_interval])))')).toEqual(['a_bucket']);
    expect(metricNamesIn('sum(rate(x_sum[5m])) / sum(rate(x_count[5m])) or vector(0)')).toEqual(['x_sum', 'x_count']);
    expect(metricNamesIn('max by (model) (no_such_metric) / 1e6')).toEqual(['no_such_metric']);
  });
});
