import { checkReadModel } from './read-model-check';
import type { StoredCostRecord } from './store-costs';

const stored: StoredCostRecord[] = [
  { eventId: 'a', organizationId: 'org-a', occurredAt: '2026-11-20T01:00:00Z', costUsdMicros: 100, position: '2' },
  { eventId: 'b', organizationId: 'org-a', occurredAt: '2026-11-20T02:00:00Z', costUsdMicros: 50, position: '5' },
  { eventId: 'c', organizationId: 'org-b', occurredAt: '2026-11-21T02:00:00Z', costUsdMicros: 7, position: '9' },
];
const open = { fromDay: null, untilDay: null };

describe('checkReadModel', () => {
  it('compares only what the read model has applied: a lagging projection is not a difference', () => {
    const snapshot = { checkpoint: '5', totals: [{ organizationId: 'org-a', day: '2026-11-20', amountUsdMicros: 150n }] };
    expect(checkReadModel(snapshot, stored, open)).toEqual({ checkpoint: '5', organizationDays: 1, notYetApplied: 1, differences: [] });
  });

  it('reports a wrong total and a day the read model lacks', () => {
    const snapshot = { checkpoint: '9', totals: [{ organizationId: 'org-a', day: '2026-11-20', amountUsdMicros: 149n }] };
    expect(checkReadModel(snapshot, stored, open).differences).toEqual([
      { organizationId: 'org-a', day: '2026-11-20', left: 150n, right: 149n },
      { organizationId: 'org-b', day: '2026-11-21', left: 7n, right: 0n },
    ]);
  });

  it('accepts zero-cost rows the read model keeps for unpriced requests', () => {
    const snapshot = { checkpoint: null, totals: [{ organizationId: 'org-c', day: '2026-11-20', amountUsdMicros: 0n }] };
    expect(checkReadModel(snapshot, stored, open).differences).toEqual([]);
  });

  it('ignores days outside the window on both sides', () => {
    const snapshot = { checkpoint: '9', totals: [{ organizationId: 'org-b', day: '2026-11-21', amountUsdMicros: 7n }] };
    expect(checkReadModel(snapshot, stored, { fromDay: '2026-11-21', untilDay: null }).differences).toEqual([]);
  });
});
