// GET /v1/organization/costs: daily buckets built from the CostPriced events, through real HTTP.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { hashApiKey } from '../../src/access/key-hash';
import { eventIdFor, requestStreamId } from '../../src/event-store/event-ids';
import type { CostPricedV1 } from '../../src/billing/billing.events';

const DAY = 86_400;
const DAY0 = Date.UTC(2026, 9, 1) / 1000; // 2026-10-01T00:00:00Z

async function recordCost(gw: TestGateway, requestId: string, at: number, micros: number, lineItems: [string, number][]) {
  const event: CostPricedV1 = {
    requestId,
    organizationId: gw.orgId,
    model: 'aria',
    endpoint: '/v1/chat/completions',
    costUsdMicros: micros,
    lineItems: lineItems.map(([name, share]) => ({
      name, side: 'input', modality: 'text', unit: 'tokens', quantity: '1', unit_price_usd: '0', amount_usd_micros: String(share), exact_usd_micros: String(share),
    })) as CostPricedV1['lineItems'],
    priceBookVersion: 'test',
    occurredAt: new Date(at * 1000).toISOString(),
  };
  await gw.gateway.runtime.eventStore.append(requestStreamId(requestId), [{ id: eventIdFor(requestId, 'CostPriced'), type: 'CostPriced', data: event }]);
}

describe('GET /v1/organization/costs', () => {
  let gw: TestGateway;
  const costs = (query: string, key = gw.apiKey) =>
    fetch(`${gw.baseUrl}/v1/organization/costs?${query}`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.organizations[0].rate_limit = { requests: 1000, window_seconds: 60 };
        config.organizations.push({ id: 'org-unpaid', payment_method: false, rate_limit: { requests: 60, window_seconds: 60 } });
        config.keys.push({ id: 'k-unpaid', hash: hashApiKey('unpaid'), owner: 't', organizations: ['org-unpaid'], default_organization: 'org-unpaid' });
      },
    });
    await recordCost(gw, 'r1', DAY0 + 3600, 1_500_000, [['aria, input text tokens', 1_000_000], ['aria, output text tokens', 500_000]]);
    await recordCost(gw, 'r2', DAY0 + 7200, 250, [['aria, input text tokens', 250]]);
    await recordCost(gw, 'r3', DAY0 + 2 * DAY + 10, 3, [['aria, output text tokens', 3]]);
  });
  afterAll(() => gw.close());

  it('returns daily buckets in ascending order with empty days, amounts exactly micros / 10^6', async () => {
    const res = await costs(`start_time=${DAY0}&end_time=${DAY0 + 3 * DAY}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as any;
    expect(page).toEqual({
      object: 'page',
      has_more: false,
      next_page: null,
      data: [
        { object: 'bucket', start_time: DAY0, end_time: DAY0 + DAY, results: [{ object: 'organization.costs.result', amount: { value: 1.50025, currency: 'usd' }, line_item: null }] },
        { object: 'bucket', start_time: DAY0 + DAY, end_time: DAY0 + 2 * DAY, results: [] },
        { object: 'bucket', start_time: DAY0 + 2 * DAY, end_time: DAY0 + 3 * DAY, results: [{ object: 'organization.costs.result', amount: { value: 0.000003, currency: 'usd' }, line_item: null }] },
      ],
    });
  });

  it('groups by line item', async () => {
    const page = (await (await costs(`start_time=${DAY0}&end_time=${DAY0 + DAY}&group_by=line_item`)).json()) as any;
    expect(page.data[0].results).toEqual([
      { object: 'organization.costs.result', amount: { value: 1.00025, currency: 'usd' }, line_item: 'aria, input text tokens' },
      { object: 'organization.costs.result', amount: { value: 0.5, currency: 'usd' }, line_item: 'aria, output text tokens' },
    ]);
  });

  it('paginates with an opaque cursor until has_more is false', async () => {
    const first = (await (await costs(`start_time=${DAY0}&end_time=${DAY0 + 3 * DAY}&limit=2`)).json()) as any;
    expect(first.data.map((b: any) => b.start_time)).toEqual([DAY0, DAY0 + DAY]);
    expect(first.has_more).toBe(true);
    const second = (await (await costs(`start_time=${DAY0}&end_time=${DAY0 + 3 * DAY}&limit=2&page=${encodeURIComponent(first.next_page)}`)).json()) as any;
    expect(second.data.map((b: any) => b.start_time)).toEqual([DAY0 + 2 * DAY]);
    expect([second.has_more, second.next_page]).toEqual([false, null]);
  });

  it('400 for a tampered cursor and for end_time before start_time', async () => {
    const first = (await (await costs(`start_time=${DAY0}&end_time=${DAY0 + 3 * DAY}&limit=1`)).json()) as any;
    const tampered = first.next_page.slice(0, -2) + (first.next_page.endsWith('A') ? 'BB' : 'AA');
    const bad = await costs(`start_time=${DAY0}&end_time=${DAY0 + 3 * DAY}&limit=1&page=${encodeURIComponent(tampered)}`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe('invalid_page_cursor');
    const range = await costs(`start_time=${DAY0}&end_time=${DAY0 - 1}`);
    expect(range.status).toBe(400);
    expect(((await range.json()) as any).error.code).toBe('invalid_time_range');
  });

  it.each([
    ['', 'start_time'],
    ['start_time=-1', 'start_time'],
    ['start_time=abc', 'start_time'],
    [`start_time=${DAY0}&limit=0`, 'limit'],
    [`start_time=${DAY0}&limit=32`, 'limit'],
    [`start_time=${DAY0}&bucket_width=1h`, 'bucket_width'],
    [`start_time=${DAY0}&group_by=project_id`, 'group_by'],
  ])('422 for %s', async (query, field) => {
    const res = await costs(query);
    expect(res.status).toBe(422);
    const body = (await res.json()) as any;
    expect(body.detail[0].loc.slice(0, 2)).toEqual(['query', field]);
  });

  it('accepts the limit edges 1 and 31', async () => {
    expect((await costs(`start_time=${DAY0}&limit=1`)).status).toBe(200);
    const page = (await (await costs(`start_time=${DAY0}&end_time=${DAY0 + 40 * DAY}&limit=31`)).json()) as any;
    expect(page.data).toHaveLength(31);
  });

  it('402 without a payment method', async () => {
    const res = await costs(`start_time=${DAY0}`, 'unpaid');
    expect(res.status).toBe(402);
  });

  it('reports the cost of a real request exactly as its usage said', async () => {
    const completion = (await gw.openai().chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'price me' }] })) as any;
    const micros = completion.usage.cost_usd_micros as number;
    expect(micros).toBeGreaterThan(0);
    const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
    const page = (await (await costs(`start_time=${today}`)).json()) as any;
    expect(page.data[0].results[0].amount.value).toBe(micros / 1_000_000);
  });
});
