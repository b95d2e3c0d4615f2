import type { RecordedEvent } from '../../event-store/event-store.port';
import { budgetStateOf, usageFormatStateOf } from './key-history';
import { KeyRegistry } from './key-registry';
import { decideSetUsageFormat, evolveUsageFormat } from './organization-usage-format';

const at = '2026-01-01T00:00:00.000Z';
const set = { organizationId: 'org-a', usageFormat: 'openai' as const, at, by: 'm' };

describe('organization usage format decider', () => {
  it('records a change from the configured format, nothing when the format is already in force', () => {
    expect(decideSetUsageFormat(null, 'openai', set)).toEqual([]);
    const first = decideSetUsageFormat(null, 'spec', set);
    expect(first).toEqual([{ type: 'OrganizationUsageFormatSet', data: { schemaVersion: 1, ...set } }]);
    const state = evolveUsageFormat(null, first[0]);
    expect(state).toEqual({ organizationId: 'org-a', usageFormat: 'openai', updatedAt: at });
    // The event wins over the configuration: back to spec is a change even where spec is configured.
    expect(decideSetUsageFormat(state, 'spec', { ...set, at: 'later' })).toEqual([]);
    expect(decideSetUsageFormat(state, 'spec', { ...set, usageFormat: 'spec' })).toHaveLength(1);
  });

  it('shares the organization stream with the budget: each fold reads its own events only', () => {
    const recorded = (type: string, data: unknown, revision: number) => ({ type, data, revision }) as unknown as RecordedEvent;
    const history = [
      recorded('OrganizationBudgetSet', { schemaVersion: 1, organizationId: 'org-a', limitUsd: '5', limitReset: null, at, by: 'm' }, 0),
      recorded('OrganizationUsageFormatSet', { schemaVersion: 1, ...set }, 1),
    ];
    expect(budgetStateOf(history)).toMatchObject({ limitUsd: '5', limitReset: null });
    expect(usageFormatStateOf(history)).toMatchObject({ usageFormat: 'openai' });
  });
});

describe('key registry: usage formats', () => {
  it('folds the latest format per organization, refuses a malformed one, and keeps it across a snapshot', () => {
    const registry = new KeyRegistry();
    registry.apply('OrganizationUsageFormatSet', { schemaVersion: 1, ...set });
    expect(registry.usageFormat('org-a')).toMatchObject({ usageFormat: 'openai' });
    expect(() => registry.apply('OrganizationUsageFormatSet', { schemaVersion: 1, ...set, usageFormat: 'OpenAI' })).toThrow('usageFormat malformed');
    expect(() => registry.apply('OrganizationUsageFormatSet', { schemaVersion: 1, ...set, organizationId: '' })).toThrow('organizationId missing');
    const restored = new KeyRegistry();
    restored.restore(JSON.parse(JSON.stringify(registry.toSnapshot())));
    expect(restored.usageFormat('org-a')).toEqual(registry.usageFormat('org-a'));
    // A snapshot written before usage formats existed still restores.
    restored.restore({ version: 1, keys: [], budgets: [] });
    expect(restored.usageFormat('org-a')).toBeUndefined();
  });
});
