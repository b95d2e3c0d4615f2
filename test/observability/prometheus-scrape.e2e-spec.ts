// A real Prometheus (Debian's 2.42, installed by ensure-prometheus.sh when missing) scrapes a gateway
// with a bearer token while it serves mixed traffic; PromQL over what it stored must give the requests
// per route the gateway answered and, per model, exactly the micros the costs API reports.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CostPricedV1 } from '../../src/billing/billing.events';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { sendMixedTraffic, UNKNOWN_PATH } from './support/mixed-traffic';
import { dashboardQueries, withGrafanaVariables } from './support/dashboard';
import { ensurePrometheus, startPrometheus, waitFor, type PrometheusServer } from './support/prometheus-server';

jest.setTimeout(240_000);

const TOKEN = 'scrape-token-3f9a';
const DAY_S = 86_400;

interface CostPage {
  data: { results: { amount: { value: number }; line_item: string | null }[] }[];
}

/** Micros per model from the costs API's line items (`<model id>, <side> ...`), summed over the buckets. */
async function costsApiMicrosByModel(gw: TestGateway): Promise<Map<string, number>> {
  const start = Math.floor(Date.now() / 1000 / DAY_S) * DAY_S - DAY_S;
  const response = await fetch(`${gw.baseUrl}/v1/organization/costs?start_time=${start}&group_by=line_item`, { headers: { authorization: `Bearer ${gw.apiKey}` } });
  expect(response.status).toBe(200);
  const page = (await response.json()) as CostPage;
  const byModel = new Map<string, number>();
  for (const result of page.data.flatMap((bucket) => bucket.results)) {
    const model = result.line_item!.split(', ')[0];
    byModel.set(model, (byModel.get(model) ?? 0) + Math.round(result.amount.value * 1e6));
  }
  return byModel;
}

describe('Prometheus scraping the gateway', () => {
  let gw: TestGateway;
  let prometheus: PrometheusServer;
  const scalar = async (promql: string) => (await prometheus.query(promql))[0]?.value;

  beforeAll(async () => {
    const binary = ensurePrometheus();
    gw = await startTestGateway({ env: { metrics: { enabled: true, token: TOKEN } } });
    prometheus = await startPrometheus(binary, { job: 'gateway', target: new URL(gw.baseUrl).host, bearerToken: TOKEN });
    await waitFor(async () => (await scalar('up{job="gateway"}')) === 1, 60_000, () => 'prometheus never scraped the gateway successfully');
    // Two rounds, each seen by a scrape, so every counter moves between two stored samples.
    await sendMixedTraffic(gw);
    await waitFor(async () => (await scalar('sum(gateway_billing_charged_requests_total)')) === 6, 60_000, () => 'first round not scraped');
    await sendMixedTraffic(gw);
    await waitFor(async () => (await scalar('sum(gateway_billing_charged_requests_total)')) === 12, 60_000, () => 'second round not scraped');
  });
  afterAll(async () => {
    await prometheus?.stop();
    await gw?.close();
  });

  it('counts the requests per route the gateway answered, unknown paths under one label', async () => {
    const byRoute = await prometheus.query('sum by (route) (gateway_http_requests_total{job="gateway"})');
    const counts = Object.fromEntries(byRoute.map((s) => [s.metric.route, s.value]));
    expect(counts).toMatchObject({ '/v1/chat/completions': 10, '/v1/audio/speech': 4, '/v1/audio/transcriptions': 2, unmatched: 2 });
    expect(Object.keys(counts).some((route) => route.includes(UNKNOWN_PATH))).toBe(false);
    const errors = await prometheus.query('sum by (route, status) (gateway_http_requests_total{status=~"4.."})');
    expect(errors.map((s) => [s.metric.route, s.metric.status, s.value]).sort()).toEqual(
      [['/v1/chat/completions', '401', 2], ['/v1/chat/completions', '404', 2], ['unmatched', '404', 2]].sort(),
    );
  });

  it('has a request rate per route, and p99 latency per route from the histogram', async () => {
    const rates = await prometheus.query('sum by (route) (rate(gateway_http_requests_total[5m]))');
    expect(rates.find((s) => s.metric.route === '/v1/chat/completions')?.value).toBeGreaterThan(0);
    const p99 = await prometheus.query('histogram_quantile(0.99, sum by (route, le) (rate(gateway_http_request_duration_seconds_bucket[5m])))');
    expect(p99.find((s) => s.metric.route === '/v1/chat/completions')?.value).toBeGreaterThan(0);
  });

  it('gives spend per model equal, in exact micros, to the costs API for the same traffic', async () => {
    // The costs read model follows the store asynchronously: wait until it holds all 12 charges.
    const recorded = (await gw.events('CostPriced')).reduce((sum, e) => sum + ((e.data as CostPricedV1).costUsdMicros ?? 0), 0);
    const sumOf = (byModel: Map<string, number>) => [...byModel.values()].reduce((a, b) => a + b, 0);
    await waitFor(async () => sumOf(await costsApiMicrosByModel(gw)) === recorded, 30_000, () => 'the costs API never caught up');
    const fromCostsApi = await costsApiMicrosByModel(gw);
    const spend = await prometheus.query('sum by (model) (gateway_billing_cost_usd_micros_total)');
    const fromPrometheus = new Map(spend.map((s) => [s.metric.model, s.value]));
    expect(fromCostsApi.size).toBe(4);
    expect(fromPrometheus).toEqual(fromCostsApi);
    expect(await scalar('sum(gateway_billing_cost_usd_micros_total)')).toBe(recorded);
  });

  it('runs every query of the Grafana dashboard, and the traffic panels show data', async () => {
    const withData = new Set<string>();
    for (const { panel, expr } of dashboardQueries()) {
      if ((await prometheus.query(withGrafanaVariables(expr))).length > 0) withData.add(panel);
    }
    for (const panel of ['Request rate by route', 'p99 latency by route', 'Streams: time to first byte (p50, p99)', 'Spend per hour by model (USD)', 'Projection lag (events behind)', 'In flight vs concurrency cap', 'Event-loop lag p99']) {
      expect(withData).toContain(panel);
    }
  });

  it('accepts deploy/prometheus/prometheus.yml (promtool check config, the token file at a temporary path)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'promtool-'));
    try {
      const config = readFileSync(join(__dirname, '..', '..', 'deploy', 'prometheus', 'prometheus.yml'), 'utf8');
      writeFileSync(join(dir, 'metrics-token'), TOKEN);
      writeFileSync(join(dir, 'prometheus.yml'), config.replaceAll('/tmp/metrics-token', join(dir, 'metrics-token')));
      const promtool = join(dirname(ensurePrometheus()), 'promtool');
      const check = spawnSync(promtool, ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
      expect({ status: check.status, output: `${check.stdout}${check.stderr}` }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
