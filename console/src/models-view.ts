import { useEffect, useState } from 'preact/hooks';
import { html } from './html';
import { apiJson } from './api';

type UnitPrices = Record<string, string>;
interface ModelEntry {
  id: string;
  name?: string;
  status?: 'warm' | 'cold';
  pricing?: { input?: Record<string, UnitPrices>; output?: Record<string, UnitPrices>; request?: string | null };
}

/** "input text: $0.000001 / tokens" lines, prices as the catalog's exact decimal strings. */
export function priceLines(pricing: ModelEntry['pricing']): string[] {
  const lines: string[] = [];
  for (const side of ['input', 'output'] as const) {
    for (const [modality, units] of Object.entries(pricing?.[side] ?? {})) {
      for (const [unit, price] of Object.entries(units ?? {})) lines.push(`${side} ${modality}: $${price} / ${unit.replace(/_/g, ' ')}`);
    }
  }
  if (pricing?.request) lines.push(`per request: $${pricing.request}`);
  return lines;
}

/** The public catalog (GET /v1/models needs no key), status as the gateway last confirmed it. */
export function ModelsView() {
  const [models, setModels] = useState<ModelEntry[] | null>(null);
  const [error, setError] = useState('');
  const load = () => apiJson<{ data: ModelEntry[] }>(null, '/v1/models').then((list) => setModels(list.data), (failure) => setError(String(failure.message)));
  useEffect(() => {
    void load();
    // Status is live: the gateway's probes update it; re-read while the view is open.
    const timer = setInterval(load, 15_000);
    return () => clearInterval(timer);
  }, []);

  return html`
    <section aria-labelledby="models-title">
      <h2 id="models-title">Models</h2>
      <button type="button" onClick=${load}>Refresh status</button>
      ${error && html`<p role="alert" class="error">${error}</p>`}
      ${models && html`
        <div class="table-scroll" tabindex="0" role="region" aria-label="Models table">
          <table class="models">
            <thead><tr><th scope="col">Model</th><th scope="col">Status</th><th scope="col">Prices per unit (USD)</th></tr></thead>
            <tbody>
              ${models.map((model) => html`
                <tr data-model=${model.id}>
                  <th scope="row">${model.id}</th>
                  <td><span class=${`status status-${model.status ?? 'unknown'}`}>${model.status ?? 'unknown'}</span></td>
                  <td><ul class="prices">${priceLines(model.pricing).map((line) => html`<li>${line}</li>`)}</ul></td>
                </tr>`)}
            </tbody>
          </table>
        </div>`}
    </section>`;
}
