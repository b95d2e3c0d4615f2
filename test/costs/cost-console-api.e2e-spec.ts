// The cost API extensions the console reads, through real HTTP: group_by=model|api_key_id, the CSV
// rendering, and GET /v1/organization/requests with its cursor and bounds.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { hashApiKey } from '../../src/access/key-hash';
import { eventIdFor, requestStreamId } from '../../src/event-store/event-ids';
import type { CostPricedV1 } from '../../src/billing/billing.events';
import { startHostileUpstream, type HostileUpstream } from '../support/hostile-upstream';
import { postChat } from '../chat/chat-test-helpers';

const DAY = 86_400;
/** Three days ago: old enough to be a day of its own, recent enough for one cost page up to today. */
const DAY0 = (Math.floor(Date.now() / 1000 / DAY) - 3) * DAY;
const SECOND_KEY = 'second-key-secret';

/** Exact micros of a CSV amount ("1.500250") or of a JSON amount (a float of at most 6 decimals). */
const csvMicros = (usd: string): bigint => BigInt(usd.replace('.', ''));
const jsonMicros = (value: number): bigint => BigInt(Math.round(value * 1_000_000));

describe('cost console API', () => {
  let gw: TestGateway;
  let hostile: HostileUpstream;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${gw.baseUrl}${path}`, { headers: { authorization: `Bearer ${gw.apiKey}`, ...headers } });
  const costsJson = async (query: string) => (await (await get(`/v1/organization/costs?${query}`)).json()) as any;
  const billed: { key: string; micros: bigint }[] = [];
  const today = DAY0 + 3 * DAY;

  beforeAll(async () => {
    hostile = await startHostileUpstream();
    gw = await startTestGateway({
      configure: (config) => {
        config.organizations[0].rate_limit = { requests: 1000, window_seconds: 60 };
        // An upstream that over-reports usage, for a disputed request (as test/billing/hostile-upstream.e2e-spec.ts).
        const aria = config.models.find((m) => m.id === 'aria')!;
        const healthy = aria.upstream.health_url!.replace('model=aria', 'model=healthy');
        config.models.push({ ...aria, id: 'aria-hostile', canonical_slug: 'gateway/aria-hostile', deployments: undefined, upstream: { ...aria.upstream, base_url: hostile.baseUrl, health_url: healthy } });
        config.keys.push({ id: 'key-second', hash: hashApiKey(SECOND_KEY), owner: 't', organizations: [config.organizations[0].id], default_organization: config.organizations[0].id });
      },
    });
    for (const [apiKey, key] of [[gw.apiKey, 'key-demo'], [gw.apiKey, 'key-demo'], [SECOND_KEY, 'key-second']]) {
      const completion = (await gw.openai({ apiKey }).chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: `price ${billed.length}` }] })) as any;
      billed.push({ key, micros: BigInt(completion.usage.cost_usd_micros) });
    }
    const event: CostPricedV1 = {
      requestId: 'r-old', organizationId: gw.orgId, model: 'legacy', endpoint: '/v1/chat/completions', costUsdMicros: 1_000_001,
      lineItems: [{ name: 'legacy, input text tokens', side: 'input', modality: 'text', unit: 'tokens', quantity: '1', unit_price_usd: '0', amount_usd_micros: '1000001', exact_usd_micros: '1000001' }],
      priceBookVersion: 'test', occurredAt: new Date((DAY0 + 60) * 1000).toISOString(),
    };
    await gw.gateway.runtime.eventStore.append(requestStreamId('r-old'), [{ id: eventIdFor('r-old', 'CostPriced'), type: 'CostPriced', data: event }]);
  });
  afterAll(async () => {
    await gw?.close();
    await hostile?.close();
  });

  it('does no console work per model request: its read models catch up only when read', async () => {
    const { costs, eventStore } = gw.gateway.runtime;
    expect(costs.onDemand.map((projection) => projection.checkpoint())).toEqual([null, null]);
    expect((await get('/v1/organization/requests?limit=1')).status).toBe(200);
    const head = await eventStore.headPosition();
    expect(costs.onDemand.map((projection) => projection.checkpoint())).toEqual([head, head]);
  });

  it('groups a day by API key: each key\'s sum is what its requests were billed, and the groups add up to the day', async () => {
    const page = await costsJson(`start_time=${today}&group_by=api_key_id`);
    const byKey = Object.fromEntries(page.data[0].results.map((r: any) => [r.api_key_id, jsonMicros(r.amount.value)]));
    const expected = (key: string) => billed.filter((b) => b.key === key).reduce((sum, b) => sum + b.micros, 0n);
    expect(byKey).toEqual({ 'key-demo': expected('key-demo'), 'key-second': expected('key-second') });
    expect(page.data[0].results.every((r: any) => r.line_item === null && !('model' in r))).toBe(true);
    const total = (await costsJson(`start_time=${today}`)).data[0].results[0].amount.value;
    expect(jsonMicros(total)).toBe(expected('key-demo') + expected('key-second'));
  });

  it('groups by model, and names no key for a cost recorded without one', async () => {
    const old = await costsJson(`start_time=${DAY0}&end_time=${DAY0 + DAY}&group_by=model`);
    expect(old.data[0].results).toEqual([{ object: 'organization.costs.result', amount: { value: 1.000001, currency: 'usd' }, line_item: null, model: 'legacy' }]);
    const keys = await costsJson(`start_time=${DAY0}&end_time=${DAY0 + DAY}&group_by=api_key_id`);
    expect(keys.data[0].results.map((r: any) => r.api_key_id)).toEqual([null]);
    const models = await costsJson(`start_time=${today}&group_by=model`);
    expect(models.data[0].results.map((r: any) => [r.model, jsonMicros(r.amount.value)])).toEqual([['aria', billed.reduce((s, b) => s + b.micros, 0n)]]);
  });

  it.each([null, 'line_item', 'model', 'api_key_id'])('answers Accept: text/csv with the JSON page\'s figures exactly (group_by %s)', async (groupBy) => {
    const query = `start_time=${DAY0}&end_time=${today + DAY}&limit=31${groupBy ? `&group_by=${groupBy}` : ''}`;
    const json = await costsJson(query);
    const res = await get(`/v1/organization/costs?${query}`, { accept: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('x-has-more')).toBe(String(json.has_more));
    const [header, ...lines] = (await res.text()).trimEnd().split('\r\n');
    expect(header).toBe(groupBy ? `start_time,end_time,date,${groupBy},amount_usd,currency` : 'start_time,end_time,date,amount_usd,currency');
    const fromCsv = lines.map((line) => {
      const cells = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((cell) => cell.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"'));
      return [Number(cells[0]), groupBy ? cells[3] || null : null, csvMicros(cells[groupBy ? 4 : 3])];
    });
    const fromJson = json.data.flatMap((bucket: any) =>
      bucket.results.map((r: any) => [bucket.start_time, groupBy ? (r[groupBy] ?? null) : null, jsonMicros(r.amount.value)]),
    );
    expect(fromCsv).toEqual(fromJson);
    expect(fromCsv.length).toBeGreaterThan(1);
  });

  it('pages CSV with the same cursor as JSON, handed over in x-next-page', async () => {
    const res = await get(`/v1/organization/costs?start_time=${DAY0}&end_time=${DAY0 + 3 * DAY}&limit=2`, { accept: 'text/csv' });
    expect(res.headers.get('x-has-more')).toBe('true');
    const next = res.headers.get('x-next-page')!;
    const json = await costsJson(`start_time=${DAY0}&end_time=${DAY0 + 3 * DAY}&limit=2&page=${encodeURIComponent(next)}`);
    expect(json.data.map((b: any) => b.start_time)).toEqual([DAY0 + 2 * DAY]);
  });

  it('keeps JSON when JSON is preferred or tied, and 422 for two groupings at once', async () => {
    expect((await get(`/v1/organization/costs?start_time=${today}`, { accept: 'application/json, text/csv' })).headers.get('content-type')).toMatch(/^application\/json/);
    const res = await get(`/v1/organization/costs?start_time=${today}&group_by=model&group_by=api_key_id`);
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).detail[0].loc).toEqual(['query', 'group_by']);
  });

  describe('GET /v1/organization/requests', () => {
    const list = async (query = '') => (await (await get(`/v1/organization/requests${query}`)).json()) as any;

    it('lists the latest requests newest first with key, usage vector, cost and disputed flag', async () => {
      const page = await list();
      expect(page.object).toBe('list');
      expect(page.data).toHaveLength(4);
      expect(page.data[0]).toMatchObject({ object: 'organization.request', id: 'r-old', model: 'legacy', api_key_id: null, usage: null, cost_usd_micros: 1_000_001, disputed: false });
      const live = page.data.slice(1).reverse();
      expect(live.map((e: any) => [e.api_key_id, BigInt(e.cost_usd_micros)])).toEqual(billed.map((b) => [b.key, b.micros]));
      expect(live[0]).toMatchObject({ model: 'aria', endpoint: '/v1/chat/completions', disputed: false });
      expect(live[0].usage.input.text.tokens).toBeGreaterThan(0);
      expect(Math.abs(live[0].created_at - Date.now() / 1000)).toBeLessThan(600);
      expect([page.first_id, page.last_id, page.has_more]).toEqual([page.data[0].id, page.data[3].id, false]);
    });

    it('pages with after=last_id until has_more is false, the pages adding up to the whole list', async () => {
      const whole = await list('?limit=100');
      const ids: string[] = [];
      let page = await list('?limit=1');
      ids.push(...page.data.map((e: any) => e.id));
      while (page.has_more) {
        page = await list(`?limit=1&after=${encodeURIComponent(page.last_id)}`);
        ids.push(...page.data.map((e: any) => e.id));
      }
      expect(ids).toEqual(whole.data.map((e: any) => e.id));
      expect(await list(`?after=${encodeURIComponent(whole.last_id)}`)).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
    });

    it.each([['0', 422], ['1', 200], ['100', 200], ['101', 422], ['x', 422]])('limit=%s answers %s', async (limit, status) => {
      const res = await get(`/v1/organization/requests?limit=${limit}`);
      expect(res.status).toBe(status);
      if (status === 422) expect(((await res.json()) as any).detail[0].loc).toEqual(['query', 'limit']);
    });

    it('flags a request whose upstream usage report was disputed', async () => {
      hostile.answer({ content: 'Hello there', usage: { prompt_tokens: 1e15, completion_tokens: 1e15, total_tokens: 2e15 } });
      const res = await postChat(gw, { model: 'aria-hostile', messages: [{ role: 'user', content: 'Say hi' }] });
      expect(res.status).toBe(200);
      const [latest] = (await list('?limit=1')).data;
      expect(latest).toMatchObject({ id: res.headers.get('x-request-id'), model: 'aria-hostile', disputed: true, cost_usd_micros: res.body.usage.cost_usd_micros });
      expect(latest.usage.input.text.tokens).toBe(res.body.usage.input.text.tokens);
    });

    it('400 invalid_cursor for an after that names no request of the organization', async () => {
      const res = await get('/v1/organization/requests?after=nope');
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error).toMatchObject({ code: 'invalid_cursor', param: 'after' });
    });
  });
});
