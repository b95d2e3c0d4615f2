import { useEffect, useState } from 'preact/hooks';
import { html } from './html';
import { apiJson, type Session } from './api';
import { formatUsd } from '../lib/money';

interface RequestEntry {
  id: string;
  created_at: number;
  model: string;
  endpoint: string;
  api_key_id: string | null;
  usage: { input: Record<string, Record<string, number | string>>; output: Record<string, Record<string, number | string>> } | null;
  cost_usd_micros: number | null;
  disputed: boolean;
}

interface RequestList {
  data: RequestEntry[];
  last_id: string | null;
  has_more: boolean;
}

const PAGE = 50;

/** The non-zero parts of the usage vector, e.g. "in text 12 tokens; out text 30 tokens". */
export function usageSummary(usage: RequestEntry['usage']): string {
  if (!usage) return '—';
  const parts: string[] = [];
  for (const [side, vector] of [['in', usage.input], ['out', usage.output]] as const) {
    for (const [modality, units] of Object.entries(vector ?? {})) {
      for (const [unit, quantity] of Object.entries(units ?? {})) {
        if (quantity !== 0 && quantity !== '0') parts.push(`${side} ${modality} ${quantity} ${unit.replace(/_/g, ' ')}`);
      }
    }
  }
  return parts.length ? parts.join('; ') : 'none';
}

export function RequestsView({ session }: { session: Session }) {
  const [entries, setEntries] = useState<RequestEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState('');

  const load = async (after: string | null) => {
    setError('');
    try {
      const page = await apiJson<RequestList>(session, `/v1/organization/requests?limit=${PAGE}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      setEntries((previous) => (after ? [...previous, ...page.data] : page.data));
      setCursor(page.last_id);
      setHasMore(page.has_more);
    } catch (failure) {
      setError(String((failure as Error).message ?? failure));
    }
  };
  useEffect(() => void load(null), [session]);

  return html`
    <section aria-labelledby="requests-title">
      <h2 id="requests-title">Latest requests</h2>
      <p class="hint">Latest recorded first; the gateway keeps the last 10,000 requests of the organization.</p>
      <button type="button" onClick=${() => load(null)}>Refresh</button>
      ${error && html`<p role="alert" class="error">${error}</p>`}
      <div class="table-scroll" tabindex="0" role="region" aria-label="Latest requests table">
        <table class="requests">
          <thead><tr><th scope="col">Time (UTC)</th><th scope="col">Model</th><th scope="col">Endpoint</th><th scope="col">Key</th><th scope="col">Usage</th><th scope="col">Cost</th><th scope="col">Disputed</th></tr></thead>
          <tbody>
            ${entries.map((entry) => html`
              <tr data-request-id=${entry.id}>
                <td>${new Date(entry.created_at * 1000).toISOString().replace('T', ' ').slice(0, 19)}</td>
                <td>${entry.model}</td>
                <td>${entry.endpoint}</td>
                <td>${entry.api_key_id ?? '—'}</td>
                <td>${usageSummary(entry.usage)}</td>
                <td data-micros=${entry.cost_usd_micros ?? ''}>${entry.cost_usd_micros === null ? 'not charged' : formatUsd(BigInt(entry.cost_usd_micros))}</td>
                <td>${entry.disputed ? 'Yes' : 'No'}</td>
              </tr>`)}
          </tbody>
        </table>
      </div>
      ${entries.length === 0 && !error && html`<p>No requests yet.</p>`}
      ${hasMore && html`<button type="button" onClick=${() => load(cursor)}>Load older requests</button>`}
    </section>`;
}
