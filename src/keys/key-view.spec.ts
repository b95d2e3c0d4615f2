import { SpendReader, type WindowSpend } from '../budgets/spend-reader';
import type { LimitReset } from '../budgets/spend-limits';
import { foldApiKey, decideIssue } from './domain/api-key';
import { budgetView } from './budget-view';
import { viewOfConfigured, viewOfState } from './key-view';

class FakeReader extends SpendReader {
  readonly asked: [string, string, LimitReset][] = [];
  constructor(private readonly spend: WindowSpend) {
    super();
  }
  spentIn(scope: 'key' | 'organization', id: string, reset: LimitReset): WindowSpend {
    this.asked.push([scope, id, reset]);
    return this.spend;
  }
}

const DAY = Date.UTC(2026, 10, 24);
const state = foldApiKey(decideIssue(null, {
  keyId: 'key_a', hash: `sha256:${'a'.repeat(64)}`, name: 'one', organizations: ['org-a'], defaultOrganization: 'org-a',
  expiresAt: null, limitUsd: '0.001', limitReset: 'daily', rateLimit: { requests: 5, window_seconds: 60 }, at: '2026-11-24T00:00:00.000Z', by: 'm',
}))!;

describe('key view', () => {
  it('shows usage, held and remaining in exact decimals from the spend reader', () => {
    const reader = new FakeReader({ settledUsdMicros: 400n, heldUsdMicros: 250n, windowStart: DAY, resetsAt: DAY + 86_400_000 });
    const view = viewOfState(state, reader, DAY + 1000);
    expect(reader.asked).toEqual([['key', 'key_a', 'daily']]);
    expect(view.usage).toEqual({
      window_start: '2026-11-24T00:00:00.000Z', resets_at: '2026-11-25T00:00:00.000Z', spent_usd: '0.0004', held_usd: '0.00025', remaining_usd: '0.00035',
    });
    expect(view).not.toHaveProperty('hash');
    expect(view.rate_limit).toEqual({ requests: 5, window_seconds: 60 });
  });

  it('never shows a negative remainder, and no remainder without a limit', () => {
    const over = new FakeReader({ settledUsdMicros: 900n, heldUsdMicros: 200n, windowStart: DAY, resetsAt: null });
    expect(viewOfState(state, over, DAY).usage.remaining_usd).toBe('0');
    const configured = viewOfConfigured({ id: 'k', hash: 'h', owner: 'ops', organizations: ['org-a'], default_organization: 'org-a' }, over, DAY);
    expect(configured).toMatchObject({ source: 'configuration', name: 'ops', limit_usd: null, usage: { spent_usd: '0.0009', remaining_usd: null } });
  });

  it('shows the API budget over the configured one, normalised', () => {
    const organization = { id: 'org-a', payment_method: true, rate_limit: { requests: 1, window_seconds: 1 }, budget: { limit_usd: '25.50', limit_reset: 'monthly' as const } };
    const none = new FakeReader({ settledUsdMicros: 0n, heldUsdMicros: 0n, windowStart: DAY, resetsAt: null });
    expect(budgetView(organization, undefined, none, DAY)).toMatchObject({ limit_usd: '25.5', limit_reset: 'monthly', source: 'configuration' });
    const set = { organizationId: 'org-a', limitUsd: '3', limitReset: null, updatedAt: 'now' };
    expect(budgetView(organization, set, none, DAY)).toMatchObject({ limit_usd: '3', limit_reset: null, source: 'api', updated_at: 'now' });
  });
});
