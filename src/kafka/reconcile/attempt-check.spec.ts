import { attemptsDiffer, checkAttempts } from './attempt-check';
import { compareAttempts, compareAttemptTotals, sumAttempts, type AttemptRecord } from './attempt-totals';

const attempt = (eventId: string, overrides: Partial<AttemptRecord> = {}): AttemptRecord => ({
  eventId,
  organizationId: 'org-a',
  modelId: 'aria',
  deploymentId: 'aria-east',
  occurredAt: '2026-11-20T10:00:00.000Z',
  costOfGoodsUsdMicros: '100',
  ...overrides,
});
const open = { fromDay: null, untilDay: null };

describe('upstream attempt totals', () => {
  it('counts attempts and sums their cost of goods exactly per organization, model, deployment and UTC day', () => {
    const totals = sumAttempts([
      attempt('1', { costOfGoodsUsdMicros: '9007199254740993' }),
      attempt('2', { costOfGoodsUsdMicros: '7' }),
      attempt('3', { costOfGoodsUsdMicros: null }),
      attempt('4', { deploymentId: 'aria-west' }),
      attempt('5', { occurredAt: '2026-11-21T01:30:00+02:00' }),
      attempt('6', { organizationId: 'org-b', occurredAt: '2026-11-21T00:00:00Z' }),
    ]);
    expect([...totals.values()]).toEqual([
      { organizationId: 'org-a', modelId: 'aria', deploymentId: 'aria-east', day: '2026-11-20', attempts: 4, costOfGoodsUsdMicros: 9007199254741100n },
      { organizationId: 'org-a', modelId: 'aria', deploymentId: 'aria-west', day: '2026-11-20', attempts: 1, costOfGoodsUsdMicros: 100n },
      { organizationId: 'org-b', modelId: 'aria', deploymentId: 'aria-east', day: '2026-11-21', attempts: 1, costOfGoodsUsdMicros: 100n },
    ]);
  });

  it.each(['1.5', '-3', '012', '', '1e3', 12])('refuses a cost of goods of %p by event id instead of guessing', (cost) => {
    expect(() => sumAttempts([attempt('evt-7', { costOfGoodsUsdMicros: cost as string })])).toThrow(/event evt-7: costOfGoodsUsdMicros .* is not exact integer micros/);
  });

  it('reports every group whose count or cost differs, a group missing on one side counting as zero', () => {
    const kafka = sumAttempts([attempt('1'), attempt('2', { costOfGoodsUsdMicros: null }), attempt('3', { deploymentId: 'aria-west' })]);
    const store = sumAttempts([attempt('1'), attempt('2', { costOfGoodsUsdMicros: '1' }), attempt('4', { modelId: 'nova' })]);
    expect(compareAttemptTotals(kafka, store)).toEqual([
      {
        organizationId: 'org-a', modelId: 'aria', deploymentId: 'aria-east', day: '2026-11-20',
        kafka: { attempts: 2, costOfGoodsUsdMicros: 100n }, store: { attempts: 2, costOfGoodsUsdMicros: 101n },
      },
      {
        organizationId: 'org-a', modelId: 'aria', deploymentId: 'aria-west', day: '2026-11-20',
        kafka: { attempts: 1, costOfGoodsUsdMicros: 100n }, store: { attempts: 0, costOfGoodsUsdMicros: 0n },
      },
      {
        organizationId: 'org-a', modelId: 'nova', deploymentId: 'aria-east', day: '2026-11-20',
        kafka: { attempts: 0, costOfGoodsUsdMicros: 0n }, store: { attempts: 1, costOfGoodsUsdMicros: 100n },
      },
    ]);
    expect(compareAttemptTotals(store, store)).toEqual([]);
  });
});

describe('upstream attempts one by one', () => {
  it('names attempts missing on Kafka, extra on Kafka, and each field a Kafka copy has otherwise', () => {
    const store = [attempt('a'), attempt('b'), attempt('c')];
    const kafka = [attempt('b', { costOfGoodsUsdMicros: '101', deploymentId: 'aria-west' }), attempt('c'), attempt('z')];
    expect(compareAttempts(store, kafka)).toEqual({
      missingFromKafka: ['a'],
      unknownToStore: ['z'],
      mismatched: [
        { eventId: 'b', field: 'deploymentId', kafka: 'aria-west', store: 'aria-east' },
        { eventId: 'b', field: 'costOfGoodsUsdMicros', kafka: '101', store: '100' },
      ],
    });
  });

  it('tells a known cost of goods from an unknown one', () => {
    expect(compareAttempts([attempt('a', { costOfGoodsUsdMicros: null })], [attempt('a', { costOfGoodsUsdMicros: '0' })]).mismatched).toEqual([
      { eventId: 'a', field: 'costOfGoodsUsdMicros', kafka: '0', store: null },
    ]);
  });
});

describe('checkAttempts', () => {
  it('matches when Kafka carries every stored attempt, at-least-once copies included', () => {
    const stored = [attempt('a'), attempt('b', { costOfGoodsUsdMicros: null })];
    const check = checkAttempts('gateway.upstream-attempt.v1', [...stored, stored[0]], stored, open);
    expect(check.counts).toEqual({ producedInStore: 2, consumed: 3, duplicatesRemoved: 1, unique: 2, withCostOfGoods: 1 });
    expect(attemptsDiffer(check)).toBe(false);
  });

  it('compares only the attempts of the window', () => {
    const stored = [attempt('old', { occurredAt: '2026-11-19T23:59:59.999Z' }), attempt('in', { occurredAt: '2026-11-20T00:00:00Z' })];
    const check = checkAttempts('t', [stored[1]], stored, { fromDay: '2026-11-20', untilDay: '2026-11-21' });
    expect(check.counts.producedInStore).toBe(1);
    expect(attemptsDiffer(check)).toBe(false);
  });

  it.each([
    ['an attempt missing on Kafka', [attempt('a')], []],
    ['an attempt unknown to the store', [], [attempt('a')]],
    ['a cost of goods that differs', [attempt('a')], [attempt('a', { costOfGoodsUsdMicros: '99' })]],
  ])('reports %s as a difference', (_label, stored, kafka) => {
    expect(attemptsDiffer(checkAttempts('t', kafka, stored, open))).toBe(true);
  });
});
