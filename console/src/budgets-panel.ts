// Organization budgets (management key): look one up by id (the key API lists no organizations), see its
// limit and usage, set or remove the API budget. PUT/GET /v1/organizations/{id}/budget.
import { useState } from 'preact/hooks';
import { html } from './html';
import { apiJson, apiSend, type Session } from './api';
import { usageSummary, type LimitLike } from '../lib/key-usage';

interface BudgetView extends LimitLike { organization_id: string; source: 'api' | 'configuration' | null }

export function BudgetsPanel({ session }: { session: Session }) {
  const [organization, setOrganization] = useState('');
  const [budget, setBudget] = useState<BudgetView | null>(null);
  const [limit, setLimit] = useState('');
  const [reset, setReset] = useState('');
  const [error, setError] = useState('');
  const path = (id: string) => `/v1/organizations/${encodeURIComponent(id)}/budget`;
  const run = async (task: () => Promise<BudgetView>) => {
    try {
      setBudget(await task());
      setError('');
    } catch (failure) {
      setError(String((failure as Error).message));
    }
  };
  const show = (event: Event) => {
    event.preventDefault();
    void run(() => apiJson<BudgetView>(session, path(organization.trim())));
  };
  const put = (limitUsd: string | null) => {
    if (!budget) return;
    void run(() => apiSend<BudgetView>(session, 'PUT', path(budget.organization_id), limitUsd === null ? { limit_usd: null } : { limit_usd: limitUsd, limit_reset: reset || null }));
  };
  const summary = budget && usageSummary(budget);

  return html`
    <section aria-labelledby="budgets-title" class="budgets">
      <h2 id="budgets-title">Organization budget</h2>
      <form class="controls" onSubmit=${show}>
        <label>Organization id<input name="budget-organization" required value=${organization} onInput=${(e: Event) => setOrganization((e.target as HTMLInputElement).value)} /></label>
        <button type="submit">Show budget</button>
      </form>
      ${error && html`<p role="alert" class="error">${error}</p>`}
      ${budget && summary && html`
        <div class="budget" data-organization=${budget.organization_id}>
          <p data-testid="budget-usage" data-spent-micros=${String(summary.spentMicros)}>
            <strong>${budget.organization_id}</strong> (${budget.limit_usd === null ? 'no budget' : `budget from ${budget.source === 'api' ? 'the API' : 'the configuration'}`}): ${summary.text}
          </p>
          ${summary.perMille != null && html`<meter min="0" max="1000" low="800" high="950" optimum="0" value=${summary.perMille} aria-label=${`${budget.organization_id}: ${summary.perMille / 10}% of the budget used`}></meter>`}
          <form class="controls" onSubmit=${(e: Event) => { e.preventDefault(); put(limit.trim()); }}>
            <label>Budget (USD)<input name="budget-limit" required inputMode="decimal" value=${limit} onInput=${(e: Event) => setLimit((e.target as HTMLInputElement).value)} /></label>
            <label>Budget resets<select name="budget-reset" value=${reset} onChange=${(e: Event) => setReset((e.target as HTMLSelectElement).value)}>
              <option value="">none (lifetime)</option><option value="daily">daily</option><option value="weekly">weekly</option><option value="monthly">monthly</option>
            </select></label>
            <button type="submit">Set budget</button>
            <button type="button" onClick=${() => put(null)}>Remove budget</button>
          </form>
        </div>`}
    </section>`;
}
