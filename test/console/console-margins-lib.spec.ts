// The Margins view's table: exact sums over pages and days, per group, with a total.
import { buildMarginTable, marginCells, type MarginPageJson } from '../../console/lib/margin-table';

const result = (model: string, deployment: string | null, revenue: string, cost: string, unknown = 0) => ({
  model, deployment, requests: 2, requests_with_unknown_cost: unknown, revenue_usd_micros: revenue, cost_of_goods_usd_micros: cost,
  margin_usd_micros: String(unknown ? 0n : BigInt(revenue) - BigInt(cost)),
});

describe('buildMarginTable', () => {
  it('sums each deployment over days and pages exactly and adds a total row', () => {
    const pages: MarginPageJson[] = [
      { data: [{ start_time: 0, results: [result('aria', 'sim-a', '9007199254740993', '1')] }, { start_time: 86_400, results: [result('aria', 'sim-b', '10', '4')] }], has_more: true, next_page: 'x' },
      { data: [{ start_time: 172_800, results: [result('aria', 'sim-a', '7', '2'), result('aria', null, '5', '0', 2)] }], has_more: false, next_page: null },
    ];
    const rows = buildMarginTable(pages, 'deployment');
    expect(rows.map((r) => [r.group, r.revenueMicros, r.costMicros, r.marginMicros, r.unknownCost])).toEqual([
      ['aria / (unknown)', 5n, 0n, 0n, 2],
      ['aria / sim-a', 9_007_199_254_741_000n, 3n, 9_007_199_254_740_997n, 0],
      ['aria / sim-b', 10n, 4n, 6n, 0],
      ['Total', 9_007_199_254_741_015n, 7n, 9_007_199_254_741_003n, 2],
    ]);
    expect(marginCells(rows[2])).toEqual(['aria / sim-b', '2', '0', '$0.000010', '$0.000004', '$0.000006']);
  });
});
