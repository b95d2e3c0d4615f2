// The margin fold and page: revenue from CostPriced, cost of goods from the served attempt of the same
// request (also across a page boundary), unknown cost counted apart, and the page's exact micros.
import type { RecordedEvent } from '../../event-store/event-store.port';
import { foldMarginPage } from './margin.fold';
import { buildMarginPage, parseMarginQuery, planMarginPage } from './margin-page';
import { RequestValidationError } from '../../common/api-error';

let position = 0;
const event = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: `e${++position}`, type, streamId: `request-${String(data.requestId)}`, revision: 0, position: String(position), data, metadata: { schemaVersion: 1 }, recordedAt: '2026-11-28T10:00:00Z',
});
const charge = (requestId: string, micros: number, organizationId = 'org-a') =>
  event('CostPriced', { requestId, organizationId, model: 'aria', endpoint: '/v1/chat/completions', costUsdMicros: micros, lineItems: [], priceBookVersion: '1', occurredAt: '2026-11-28T09:00:00Z' });
const attempt = (requestId: string, outcome: string, deploymentId: string, cost: string | null) =>
  event('UpstreamAttemptRecorded', { requestId, organizationId: 'org-a', modelId: 'aria', deploymentId, attempt: 1, outcome, status: 200, timeToFirstByteMs: 5, costOfGoodsUsdMicros: cost, occurredAt: '2026-11-28T09:00:00Z' });

describe('margin fold', () => {
  it('sums revenue and cost of goods per model, deployment and organization; failed attempts cost nothing', () => {
    const page = foldMarginPage([
      charge('r1', 1000), attempt('r1', 'upstream_5xx', 'b', null), attempt('r1', 'served', 'a', '400'),
      charge('r2', 9_007_199_254_740_991), attempt('r2', 'served', 'a', '9007199254740990'),
      charge('r3', 50, 'org-b'), attempt('r3', 'served', 'b', null),
    ], []);
    const find = (dimension: string, value: string) => page.deltas.find((d) => d.dimension === dimension && d.value === value);
    expect(find('deployment', 'aria/a')).toMatchObject({ revenueUsdMicros: 9_007_199_254_741_991n, costOfGoodsUsdMicros: 9_007_199_254_741_390n, requests: 2, unknownCostRequests: 0 });
    expect(find('deployment', 'aria/b')).toMatchObject({ revenueUsdMicros: 50n, costedRevenueUsdMicros: 0n, unknownCostRequests: 1 });
    expect(find('model', 'aria')).toMatchObject({ revenueUsdMicros: 9_007_199_254_742_041n, requests: 3, unknownCostRequests: 1 });
    expect(find('organization', 'org-b')).toMatchObject({ revenueUsdMicros: 50n, requests: 1 });
    expect(page.carried).toEqual([]);
  });

  it('carries a charge whose attempt is on the next page, and counts one with no attempt as unknown cost', () => {
    const first = foldMarginPage([charge('r1', 70), charge('r2', 30)], []);
    expect(first.deltas).toEqual([]);
    expect(first.carried.map((r) => r.requestId)).toEqual(['r1', 'r2']);
    const second = foldMarginPage([attempt('r1', 'served', 'a', '20')], first.carried);
    expect(second.carried).toEqual([]);
    expect(second.deltas.find((d) => d.value === 'aria/a')).toMatchObject({ revenueUsdMicros: 70n, costOfGoodsUsdMicros: 20n });
    expect(second.deltas.find((d) => d.value === 'aria/')).toMatchObject({ revenueUsdMicros: 30n, unknownCostRequests: 1 });
  });
});

describe('margin page', () => {
  it('validates its query at and past the edges', () => {
    expect(parseMarginQuery({ start_time: '0' })).toMatchObject({ groupBy: 'model', limit: 7 });
    expect(parseMarginQuery({ start_time: '0', limit: '31', group_by: 'deployment' })).toMatchObject({ groupBy: 'deployment', limit: 31 });
    for (const bad of [{ start_time: '0', limit: '32' }, { start_time: '0', limit: '0' }, { start_time: '0', group_by: 'line_item' }, {}]) {
      expect(() => parseMarginQuery(bad)).toThrow(RequestValidationError);
    }
  });

  it('renders exact micros and a margin over the requests whose cost is known', () => {
    const query = parseMarginQuery({ start_time: String(Date.parse('2026-11-28T00:00:00Z') / 1000), end_time: String(Date.parse('2026-11-29T00:00:00Z') / 1000), group_by: 'deployment' });
    const plan = planMarginPage(query, Date.parse('2026-11-30T00:00:00Z') / 1000, 'secret');
    const page = buildMarginPage(plan, 'deployment', [
      { day: '2026-11-28', value: 'aria/a', revenueUsdMicros: 9_007_199_254_741_991n, costedRevenueUsdMicros: 9_007_199_254_741_991n, costOfGoodsUsdMicros: 1n, requests: 2, unknownCostRequests: 0 },
      { day: '2026-11-28', value: 'aria/', revenueUsdMicros: 30n, costedRevenueUsdMicros: 0n, costOfGoodsUsdMicros: 0n, requests: 1, unknownCostRequests: 1 },
    ], 'secret');
    expect(page).toMatchObject({ object: 'page', has_more: false, next_page: null });
    expect(page.data).toHaveLength(1);
    expect(page.data[0].results).toEqual([
      { object: 'margins.result', model: 'aria', deployment: 'a', requests: 2, requests_with_unknown_cost: 0, revenue_usd_micros: '9007199254741991', cost_of_goods_usd_micros: '1', margin_usd_micros: '9007199254741990' },
      { object: 'margins.result', model: 'aria', deployment: null, requests: 1, requests_with_unknown_cost: 1, revenue_usd_micros: '30', cost_of_goods_usd_micros: '0', margin_usd_micros: '0' },
    ]);
  });
});
