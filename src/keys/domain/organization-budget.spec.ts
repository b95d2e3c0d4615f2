import { decideSetBudget, evolveBudget } from './organization-budget';

const set = { organizationId: 'org-a', limitUsd: '10', limitReset: 'monthly' as const, at: '2026-01-01T00:00:00.000Z', by: 'm' };

describe('organization budget decider', () => {
  it('records a new budget, nothing when it is already in force, and a change or removal after', () => {
    const first = decideSetBudget(null, set);
    expect(first).toEqual([{ type: 'OrganizationBudgetSet', data: { schemaVersion: 1, ...set } }]);
    const state = evolveBudget(null, first[0]);
    expect(decideSetBudget(state, { ...set, at: 'later' })).toEqual([]);
    expect(decideSetBudget(state, { ...set, limitReset: null })).toHaveLength(1);
    const removed = decideSetBudget(state, { ...set, limitUsd: null });
    expect(evolveBudget(state, removed[0])).toMatchObject({ limitUsd: null });
  });
});
