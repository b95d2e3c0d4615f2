import { BigDecimal } from '../../common/big-decimal';
import { sumDailyCosts } from './cost-totals';
import { compareWithGateway, microsToUsd } from './gateway-compare';

describe('compareWithGateway', () => {
  const totals = sumDailyCosts([
    { eventId: '1', organizationId: 'org-a', occurredAt: '2026-11-20T10:00:00Z', costUsdMicros: 1_234_567 },
    { eventId: '2', organizationId: 'org-a', occurredAt: '2026-11-21T10:00:00Z', costUsdMicros: 10 },
    { eventId: '3', organizationId: 'org-b', occurredAt: '2026-11-20T10:00:00Z', costUsdMicros: 99 },
  ]).byDay;

  it('converts micros to USD exactly', () => {
    expect(microsToUsd(1_234_567n).toFixed()).toBe('1.234567');
  });

  it('matches days within the tolerance and flags the rest, for the chosen organization only', () => {
    const gateway = new Map([
      ['2026-11-20', BigDecimal.parse('1.234567')],
      ['2026-11-21', BigDecimal.parse('0.00002')],
      ['2026-11-22', BigDecimal.parse('0')],
    ]);
    const days = compareWithGateway(totals, 'org-a', gateway, BigDecimal.parse('0.000001'));
    expect(days.map(({ day, matches }) => [day, matches])).toEqual([
      ['2026-11-20', true],
      ['2026-11-21', false],
      ['2026-11-22', true],
    ]);
  });

  it('accepts the gateway rounding to cents when the tolerance says so', () => {
    const rounded = new Map([['2026-11-20', BigDecimal.parse('1.23')]]);
    expect(compareWithGateway(totals, 'org-a', rounded, BigDecimal.parse('0.005'))[0].matches).toBe(true);
    expect(compareWithGateway(totals, 'org-a', rounded, BigDecimal.parse('0.000001'))[0].matches).toBe(false);
  });

  it('flags a day the gateway does not know', () => {
    expect(compareWithGateway(totals, 'org-b', new Map(), BigDecimal.parse('0.000001'))).toEqual([
      { day: '2026-11-20', expectedUsdMicros: 99n, gatewayUsd: BigDecimal.ZERO, matches: false },
    ]);
  });
});
