import type { CostPricedV1, PricedLineItem } from '../../billing/billing.events';
import { addQuantities, dailyCostDelta, mergeDailyDeltas } from './daily-cost.fold';
import { BigDecimal } from '../../common/big-decimal';
import { classifyFailure, EventContractError } from '../../projections/parking/event-contract-error';

const item = (name: string, amount: string, quantity: string): PricedLineItem => ({
  name,
  side: 'input',
  modality: 'text',
  unit: 'tokens',
  quantity,
  unit_price_usd: '0.000001',
  amount_usd_micros: amount,
  exact_usd_micros: amount,
});

const priced = (overrides: Partial<CostPricedV1> = {}): CostPricedV1 => ({
  requestId: 'req_1',
  organizationId: 'org-a',
  model: 'gpt-mini',
  endpoint: '/v1/chat/completions',
  costUsdMicros: 35,
  lineItems: [item('gpt-mini, output text tokens', '20', '10'), item('gpt-mini, input text tokens', '15', '15')],
  priceBookVersion: '2025-01',
  occurredAt: '2025-03-09T23:59:59.999Z',
  ...overrides,
});

describe('dailyCostDelta', () => {
  it('puts the cost on the UTC day of occurredAt, line items sorted by name', () => {
    const delta = dailyCostDelta(priced());
    expect(delta).toMatchObject({ organizationId: 'org-a', day: '2025-03-09', totalUsdMicros: 35n });
    expect(delta.lineItems.map((l) => [l.lineItem, l.amountUsdMicros, l.quantity.toFixed()])).toEqual([
      ['gpt-mini, input text tokens', 15n, '15'],
      ['gpt-mini, output text tokens', 20n, '10'],
    ]);
  });

  it('uses UTC, not the offset the timestamp was written in', () => {
    expect(dailyCostDelta(priced({ occurredAt: '2025-03-10T01:00:00+02:00' })).day).toBe('2025-03-09');
  });

  it('merges line items of the same name within one event, exactly', () => {
    const delta = dailyCostDelta(priced({ lineItems: [item('a', '1', '0.1'), item('a', '2', '0.2')] }));
    expect(delta.lineItems.map((l) => [l.amountUsdMicros, l.quantity.toFixed()])).toEqual([[3n, '0.3']]);
  });

  it('counts an uncharged request (null cost) as zero', () => {
    expect(dailyCostDelta(priced({ costUsdMicros: null, lineItems: [] })).totalUsdMicros).toBe(0n);
  });

  it('rejects amounts that are not integer micros and malformed quantities', () => {
    expect(() => dailyCostDelta(priced({ lineItems: [item('a', '1.5', '1')] }))).toThrow('integer number of micros');
    expect(() => dailyCostDelta(priced({ lineItems: [item('a', '1', '1e3')] }))).toThrow('not a decimal string');
    expect(() => dailyCostDelta(priced({ costUsdMicros: 1.5 }))).toThrow('not an integer');
  });

  it('accepts costs up to 2^53 - 1 micros, as a number or as decimal text, and refuses the next one', () => {
    expect(dailyCostDelta(priced({ costUsdMicros: Number.MAX_SAFE_INTEGER })).totalUsdMicros).toBe(9007199254740991n);
    expect(dailyCostDelta(priced({ costUsdMicros: '9007199254740991' as unknown as number })).totalUsdMicros).toBe(9007199254740991n);
    expect(() => dailyCostDelta(priced({ costUsdMicros: '9007199254740992' as unknown as number }))).toThrow('beyond the 9007199254740991 micros');
    expect(() => dailyCostDelta(priced({ costUsdMicros: 2 ** 53 }))).toThrow('not an integer number of micros');
    expect(() => dailyCostDelta(priced({ lineItems: [item('a', '9007199254740992', '1')] }))).toThrow('beyond');
  });

  it.each([
    ['an oversized cost', priced({ costUsdMicros: 2e18 })],
    ['non-integer micros', priced({ costUsdMicros: 0.5 })],
    ['a missing organization', priced({ organizationId: undefined as unknown as string })],
    ['missing line items', priced({ lineItems: undefined as unknown as [] })],
    ['a line item that is not an object', priced({ lineItems: [null as unknown as ReturnType<typeof item>] })],
    ['a garbage timestamp', priced({ occurredAt: 'yesterday' })],
    ['a timestamp beyond what a Date holds', priced({ occurredAt: '+999999-01-01T00:00:00Z' })],
    ['null data', null],
    ['a string instead of an object', 'garbage'],
    ['an array', [1, 2]],
  ])('refuses %s with an EventContractError, which parking classifies as poison', (_what, data) => {
    let thrown: unknown;
    try {
      dailyCostDelta(data);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EventContractError);
    expect(classifyFailure(thrown)).toBe('poison');
  });
});

describe('mergeDailyDeltas', () => {
  it('sums a page per organization and day: totals, request counts, line items by name, exactly', () => {
    const deltas = [
      priced(),
      priced({ costUsdMicros: 7, lineItems: [item('gpt-mini, input text tokens', '7', '0.5')] }),
      priced({ organizationId: 'org-b' }),
      priced({ occurredAt: '2025-03-10T00:00:00.000Z' }),
    ].map(dailyCostDelta);
    const merged = mergeDailyDeltas(deltas);
    expect(merged.map((b) => [b.organizationId, b.day, b.totalUsdMicros, b.pricedRequests])).toEqual([
      ['org-a', '2025-03-09', 42n, 2],
      ['org-b', '2025-03-09', 35n, 1],
      ['org-a', '2025-03-10', 35n, 1],
    ]);
    expect(merged[0].lineItems.map((i) => [i.lineItem, i.amountUsdMicros, i.quantity.toFixed()])).toEqual([
      ['gpt-mini, input text tokens', 22n, '15.5'],
      ['gpt-mini, output text tokens', 20n, '10'],
    ]);
  });

  it('merges nothing into nothing', () => {
    expect(mergeDailyDeltas([])).toEqual([]);
  });
});

describe('addQuantities', () => {
  it('sums decimal text without binary rounding or exponent notation', () => {
    expect(addQuantities('0.1', BigDecimal.parse('0.2'))).toBe('0.3');
    expect(addQuantities(undefined, BigDecimal.parse('0.0000001'))).toBe('0.0000001');
    expect(addQuantities('123456789012345678901234567890.000000001', BigDecimal.parse('1'))).toBe('123456789012345678901234567891.000000001');
  });
});
