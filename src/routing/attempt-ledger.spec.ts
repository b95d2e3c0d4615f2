// The ledger check's routing part: one served attempt per charge, costs only on it, totals exact.
import type { RecordedEvent } from '../event-store/event-store.port';
import { AttemptLedger, attemptLedgerLines } from './attempt-ledger';

let position = 0;
const event = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: `e${++position}`, type, streamId: `request-${String(data.requestId)}`, revision: 0, position: String(position), data, metadata: {}, recordedAt: '2026-11-28T10:00:00Z',
});
const charge = (requestId: string, micros: number) => event('CostPriced', { requestId, organizationId: 'org-a', costUsdMicros: micros });
const attempt = (requestId: string, outcome: string, cost: string | null, n = 1) =>
  event('UpstreamAttemptRecorded', { requestId, organizationId: 'org-a', deploymentId: 'a', attempt: n, outcome, costOfGoodsUsdMicros: cost });

function check(events: RecordedEvent[]): AttemptLedger {
  const ledger = new AttemptLedger();
  events.forEach((e) => ledger.add(e));
  return ledger.finish();
}

describe('attempt ledger', () => {
  it('totals revenue, cost of goods and margin of charged requests, failed-only requests uncharged', () => {
    const ledger = check([
      charge('r1', 100), attempt('r1', 'upstream_5xx', null, 1), attempt('r1', 'served', '40', 2),
      attempt('r2', 'connect_error', null), attempt('r2', 'timeout', null, 2),
      charge('r3', 9_007_199_254_740_991), attempt('r3', 'served', '9007199254740990'),
      charge('r4', 7), attempt('r4', 'served', null),
      charge('r5', 3),
    ]);
    expect(ledger.problems).toEqual([]);
    expect([ledger.costedRevenueUsdMicros, ledger.costOfGoodsUsdMicros, ledger.unknownCostRequests, ledger.chargedWithAttempts]).toEqual([9_007_199_254_741_091n, 9_007_199_254_741_030n, 1, 3]);
    expect(attemptLedgerLines(ledger).at(-1)).toContain('margin 61 micros');
  });

  it('reports a charge with no served attempt, a cost on a failed one, two costs, and malformed events', () => {
    const ledger = check([
      charge('r1', 10), attempt('r1', 'upstream_5xx', null),
      charge('r2', 10), attempt('r2', 'cold', '5'), attempt('r2', 'served', '1', 2),
      charge('r3', 10), attempt('r3', 'served', '1'), attempt('r3', 'served', '2', 2),
      attempt('r4', 'exploded', null), attempt('r5', 'served', '1.5'),
    ]);
    expect(ledger.problems.map((p) => [p.requestId, p.reason])).toEqual([
      ['r1', 'charged, but none of its recorded attempts served it'],
      ['r2', 'a failed attempt carries a cost of goods'],
      ['r3', '2 served attempts carry a cost of goods; one should'],
      ['r4', "malformed UpstreamAttemptRecorded: unknown outcome 'exploded'"],
      ['r5', "malformed UpstreamAttemptRecorded: costOfGoodsUsdMicros '1.5' is not integer micros"],
    ]);
    expect(attemptLedgerLines(ledger)[0]).toBe('ATTEMPTS r1: charged, but none of its recorded attempts served it');
  });
});
