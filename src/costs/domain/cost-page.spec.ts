import { ApiError } from '../../common/api-error';
import { buildCostPage, planCostPage, type CostPage } from './cost-page';
import type { CostRow } from './cost-rows';
import { parseCostQuery, type RawCostQuery } from './cost-query';
import { signCursor } from './page-cursor';
import { unixSecondsOfDay } from './utc-day';

const secret = 'test-secret';
const organizationId = 'org-a';
const DAY = 86_400;
const march = (day: number): number => unixSecondsOfDay(`2025-03-${String(day).padStart(2, '0')}`);

const rows: CostRow[] = [
  { day: '2025-03-01', group: 'gpt-mini, output text tokens', amountUsdMicros: 250n },
  { day: '2025-03-01', group: 'gpt-mini, input text tokens', amountUsdMicros: 1_500_000n },
  { day: '2025-03-03', group: 'tts, input text characters', amountUsdMicros: 1n },
];
const totals: CostRow[] = [
  { day: '2025-03-01', group: null, amountUsdMicros: 1_500_250n },
  { day: '2025-03-03', group: null, amountUsdMicros: 1n },
];

/** Plays the controller: plan, read only the planned days, build. */
function page(raw: RawCostQuery, nowSeconds = march(20), org = organizationId): CostPage {
  const query = parseCostQuery(raw);
  const plan = planCostPage(query, { organizationId: org, nowSeconds, secret });
  const source = query.groupBy === 'line_item' ? rows : totals;
  return buildCostPage(plan, source.filter((row) => row.day >= plan.fromDay && row.day < plan.toDay), secret);
}

function apiError(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('organization cost page', () => {
  it('lists every day of the range, empty days with no results, totals as line_item null', () => {
    const result = page({ start_time: String(march(1)), end_time: String(march(4)) });
    expect(result).toEqual({
      object: 'page',
      has_more: false,
      next_page: null,
      data: [
        { object: 'bucket', start_time: march(1), end_time: march(2), results: [{ object: 'organization.costs.result', amount: { value: 1.50025, currency: 'usd' }, line_item: null }] },
        { object: 'bucket', start_time: march(2), end_time: march(3), results: [] },
        { object: 'bucket', start_time: march(3), end_time: march(4), results: [{ object: 'organization.costs.result', amount: { value: 0.000001, currency: 'usd' }, line_item: null }] },
      ],
    });
  });

  it('groups by line item, one result per line item sorted by name', () => {
    const [first] = page({ start_time: String(march(1)), end_time: String(march(2)), group_by: 'line_item' }).data;
    expect(first.results.map((r) => [r.line_item, r.amount.value])).toEqual([
      ['gpt-mini, input text tokens', 1.5],
      ['gpt-mini, output text tokens', 0.00025],
    ]);
  });

  it('floors a non-midnight start to its UTC day and covers the whole day of a non-midnight end', () => {
    const result = page({ start_time: String(march(1) + 3600), end_time: String(march(3) + 60) });
    expect(result.data.map((b) => b.start_time)).toEqual([march(1), march(2), march(3)]);
  });

  it('defaults end_time to now', () => {
    expect(page({ start_time: String(march(1)) }, march(2) + 10).data.map((b) => b.start_time)).toEqual([march(1), march(2)]);
  });

  it('pages through the range with opaque cursors and the same results as one big page', () => {
    const raw = { start_time: String(march(1)), end_time: String(march(6)), group_by: 'line_item', limit: '2' };
    const pages = [page(raw)];
    while (pages[pages.length - 1].has_more) pages.push(page({ ...raw, page: pages[pages.length - 1].next_page! }));
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.next_page === null)).toEqual([false, false, true]);
    expect(pages.flatMap((p) => p.data)).toEqual(page({ ...raw, limit: '31' }).data);
  });

  it('keeps a follow-up page on the first page end_time when end_time was defaulted', () => {
    const first = page({ start_time: String(march(1)), limit: '1' }, march(2) + 5);
    const second = page({ start_time: String(march(1)), limit: '1', page: first.next_page! }, march(9));
    expect(second).toMatchObject({ has_more: false, data: [{ start_time: march(2) }] });
  });

  it('limit 1 gives one bucket per page; limit 31 a month', () => {
    expect(page({ start_time: '0', end_time: String(3 * DAY), limit: '1' }).data).toHaveLength(1);
    const month = page({ start_time: String(march(1)), end_time: String(march(1) + 40 * DAY), limit: '31' });
    expect([month.data.length, month.has_more]).toEqual([31, true]);
  });

  it('gives an empty page for an empty range', () => {
    expect(page({ start_time: String(march(1)), end_time: String(march(1)) })).toEqual({ object: 'page', data: [], has_more: false, next_page: null });
  });

  it('rejects end_time before start_time with 400 invalid_time_range', () => {
    const error = apiError(() => page({ start_time: String(march(2)), end_time: String(march(1)) }));
    expect([error.status, error.code, error.param]).toEqual([400, 'invalid_time_range', 'end_time']);
    expect(apiError(() => page({ start_time: String(march(25)) }, march(20))).code).toBe('invalid_time_range');
  });

  describe('cursor tampering', () => {
    const raw = { start_time: String(march(1)), end_time: String(march(9)), limit: '2' };
    const next = (): string => page(raw).next_page!;

    it.each([
      ['an edited payload', (cursor: string) => `${Buffer.from(JSON.stringify({ organizationId, startTime: march(1), endTime: march(30), groupBy: null, nextBucketStart: march(3) })).toString('base64url')}.${cursor.split('.')[1]}`],
      ['an edited signature', (cursor: string) => {
        const [payload, signature] = cursor.split('.');
        return `${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
      }],
      ['garbage', () => 'not-a-cursor'],
      ['a cursor signed with another secret', () => signCursor({ organizationId, startTime: march(1), endTime: march(9), groupBy: null, nextBucketStart: march(3) }, 'other')],
    ])('rejects %s with 400 invalid_page_cursor', (_, tamper) => {
      const error = apiError(() => page({ ...raw, page: tamper(next()) }));
      expect([error.status, error.code, error.param]).toEqual([400, 'invalid_page_cursor', 'page']);
    });

    it('rejects a cursor of another organization or another query', () => {
      expect(apiError(() => page({ ...raw, page: next() }, march(20), 'org-b')).code).toBe('invalid_page_cursor');
      expect(apiError(() => page({ ...raw, group_by: 'line_item', page: next() })).code).toBe('invalid_page_cursor');
      expect(apiError(() => page({ ...raw, end_time: String(march(10)), page: next() })).code).toBe('invalid_page_cursor');
    });
  });
});
