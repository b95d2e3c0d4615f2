// GET /metrics through real HTTP: the exposition after mixed traffic matches what the gateway recorded
// (requests by route pattern, charges and exact cost by model), labels stay bounded, the token guards it
// and GATEWAY_METRICS=off removes it.
import type { CostPricedV1 } from '../../src/billing/billing.events';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { parseExposition, samplesOf, sumOf, type Sample } from './support/exposition';
import { sendMixedTraffic, UNKNOWN_PATH } from './support/mixed-traffic';

jest.setTimeout(120_000);

async function scrape(gw: TestGateway, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await fetch(`${gw.baseUrl}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(response.headers.get('x-ratelimit-limit')).toBeNull(); // no key, no rate limit
  return parseExposition(await response.text());
}

describe('GET /metrics', () => {
  let gw: TestGateway;
  let samples: Sample[];

  beforeAll(async () => {
    gw = await startTestGateway({ configure: (config) => (config.organizations[0].rate_limit = { requests: 12, window_seconds: 3600 }) });
    await sendMixedTraffic(gw);
    samples = await scrape(gw);
  });
  afterAll(() => gw.close());

  it('counts requests by route pattern, method and status, with unknown paths under one label', () => {
    expect(sumOf(samples, 'gateway_http_requests_total', { route: '/v1/chat/completions', method: 'POST', status: '200' })).toBe(3);
    expect(sumOf(samples, 'gateway_http_requests_total', { route: '/v1/chat/completions', status: '404' })).toBe(1);
    expect(sumOf(samples, 'gateway_http_requests_total', { route: '/v1/chat/completions', status: '401' })).toBe(1);
    expect(sumOf(samples, 'gateway_http_requests_total', { route: '/v1/audio/speech', status: '200' })).toBe(2);
    expect(sumOf(samples, 'gateway_http_requests_total', { route: '/v1/audio/transcriptions', status: '200' })).toBe(1);
    expect(sumOf(samples, 'gateway_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    const routes = new Set(samplesOf(samples, 'gateway_http_requests_total').map((s) => s.labels.route));
    expect([...routes].some((route) => route.includes(UNKNOWN_PATH) || route.includes('req-'))).toBe(false);
  });

  it('has a latency histogram per route whose count is the route\'s requests, and a first-byte histogram for streams', () => {
    const count = sumOf(samples, 'gateway_http_request_duration_seconds_count', { route: '/v1/chat/completions', method: 'POST' });
    expect(count).toBe(5);
    const inf = sumOf(samples, 'gateway_http_request_duration_seconds_bucket', { route: '/v1/chat/completions', method: 'POST', le: '+Inf' });
    expect(inf).toBe(5);
    expect(sumOf(samples, 'gateway_http_time_to_first_byte_seconds_count', { route: '/v1/chat/completions' })).toBe(1);
    expect(sumOf(samples, 'gateway_http_time_to_first_byte_seconds_count', { route: '/v1/audio/speech' })).toBe(1);
  });

  it('counts charges and exact cost in micros by model and endpoint, as the CostPriced events record them', async () => {
    const priced = (await gw.events('CostPriced')).map((e) => e.data as CostPricedV1);
    expect(priced).toHaveLength(6);
    const expected = new Map<string, { requests: number; micros: number }>();
    for (const cost of priced) {
      const key = `${cost.model} ${cost.endpoint}`;
      const entry = expected.get(key) ?? { requests: 0, micros: 0 };
      expected.set(key, { requests: entry.requests + 1, micros: entry.micros + (cost.costUsdMicros ?? 0) });
    }
    for (const [key, { requests, micros }] of expected) {
      const [model, endpoint] = key.split(' ');
      expect(sumOf(samples, 'gateway_billing_charged_requests_total', { model, endpoint })).toBe(requests);
      expect(sumOf(samples, 'gateway_billing_cost_usd_micros_total', { model, endpoint })).toBe(micros);
    }
    expect(sumOf(samples, 'gateway_billing_charged_requests_total')).toBe(6);
    expect(sumOf(samples, 'gateway_billing_append_duration_seconds_count')).toBe(6);
    expect(sumOf(samples, 'gateway_event_store_commit_batch_size_sum')).toBeGreaterThanOrEqual(6);
  });

  it('counts upstream calls by model and outcome, and shows every catalog model\'s status and in-flight work', () => {
    expect(sumOf(samples, 'gateway_upstream_requests_total', { model: 'aria', outcome: 'ok' })).toBe(2);
    expect(sumOf(samples, 'gateway_upstream_request_duration_seconds_count', { model: 'aria' })).toBe(2);
    for (const model of gw.config.models) {
      expect(samplesOf(samples, 'gateway_model_status', { model: model.id })).toHaveLength(3);
      expect(sumOf(samples, 'gateway_model_status', { model: model.id })).toBe(1);
      expect(samplesOf(samples, 'gateway_model_in_flight', { model: model.id })[0]?.value).toBe(0);
    }
  });

  it('reports projections caught up, nothing parked or spooled, and Node process metrics', () => {
    const behind = samplesOf(samples, 'gateway_projection_events_behind');
    expect(behind.map((s) => s.labels.projection).sort()).toEqual(['budgets', 'daily-cost', 'key-registry', 'model-status', 'rate-limit'].sort());
    expect(behind.every((s) => s.value >= 0)).toBe(true);
    expect(sumOf(samples, 'gateway_projection_parked_events')).toBe(0);
    expect(sumOf(samples, 'gateway_billing_spooled_usages_total')).toBe(0);
    expect(samplesOf(samples, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
    expect(samplesOf(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
  });

  it('counts a failing upstream call under the error code the client got', async () => {
    gw.simulator.control.set('aria', { kind: 'fail', status: 500 });
    try {
      const response = await gw.postJson('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'hi' }] });
      expect(response.status).toBe(502);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('upstream_error');
    } finally {
      gw.simulator.control.reset();
    }
    const after = await scrape(gw);
    // One call per deployment: aria's two deployments (both on the simulator) each failed before the first byte.
    expect(sumOf(after, 'gateway_upstream_requests_total', { model: 'aria', outcome: 'upstream_error' })).toBe(2);
    expect(sumOf(after, 'gateway_http_requests_total', { route: '/v1/chat/completions', status: '502' })).toBe(1);
    expect(sumOf(after, 'gateway_billing_charged_requests_total', { model: 'aria' })).toBe(sumOf(samples, 'gateway_billing_charged_requests_total', { model: 'aria' }));
  });

  it('counts rate-limit refusals by configured organization', async () => {
    const before = sumOf(samples, 'gateway_refusals_total', { organization: gw.orgId, reason: 'rate_limited' });
    let refused = 0;
    for (let i = 0; i < 12 && refused === 0; i += 1) {
      const response = await gw.postJson('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'hi' }] });
      await response.arrayBuffer();
      if (response.status === 429) refused += 1;
    }
    expect(refused).toBe(1);
    const after = await scrape(gw);
    expect(sumOf(after, 'gateway_refusals_total', { organization: gw.orgId, reason: 'rate_limited' })).toBe(before + 1);
    expect(sumOf(after, 'gateway_http_requests_total', { route: '/v1/chat/completions', status: '429' })).toBe(1);
  });
});

describe('GET /metrics with GATEWAY_METRICS_TOKEN', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { metrics: { enabled: true, token: 's3cret-token' } } });
  });
  afterAll(() => gw.close());

  it.each([
    ['no authorization', {}],
    ['a wrong token', { authorization: 'Bearer s3cret-tokeN' }],
    ['an API key', { authorization: 'Bearer wrong' }],
  ])('answers 401 in the error envelope with %s', async (_case, headers: Record<string, string>) => {
    const response = await fetch(`${gw.baseUrl}/metrics`, { headers });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { message: expect.any(String), type: 'authentication_error', param: null, code: 'invalid_metrics_token' } });
  });

  it('answers the exposition with the token', async () => {
    const samples = await scrape(gw, { authorization: 'Bearer s3cret-token' });
    expect(samplesOf(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
  });
});

describe('GATEWAY_METRICS=off', () => {
  it('serves no /metrics and records nothing', async () => {
    const gw = await startTestGateway({ env: { metrics: { enabled: false, token: null } } });
    try {
      expect(gw.gateway.runtime.metrics).toBeNull();
      const response = await fetch(`${gw.baseUrl}/metrics`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
    } finally {
      await gw.close();
    }
  });
});
