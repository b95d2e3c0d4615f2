// The Margins view (management key): GET /v1/margins over a range of UTC days, grouped by model,
// deployment or organization, every page of the range read and summed exactly (console/lib/margin-table.ts).
import { useState } from 'preact/hooks';
import { html } from './html';
import { apiJson, type Session } from './api';
import { buildMarginTable, marginCells, type MarginGrouping, type MarginPageJson } from '../lib/margin-table';

const DAY = 86_400;
const HEADINGS = ['Group', 'Requests', 'Of unknown cost', 'Revenue', 'Cost of goods', 'Margin'];

export function MarginsView({ session }: { session: Session }) {
  const [days, setDays] = useState('7');
  const [grouping, setGrouping] = useState<MarginGrouping>('model');
  const [pages, setPages] = useState<MarginPageJson[] | null>(null);
  const [error, setError] = useState('');
  const load = async (event: Event) => {
    event.preventDefault();
    const end = Math.ceil(Date.now() / 1000 / DAY) * DAY;
    const start = end - Math.max(1, Math.min(366, Number(days) || 7)) * DAY;
    try {
      const read: MarginPageJson[] = [];
      for (let page: string | null = null, first = true; first || page !== null; first = false) {
        const cursor: string = page === null ? '' : `&page=${encodeURIComponent(page)}`;
        const next: MarginPageJson = await apiJson<MarginPageJson>(session, `/v1/margins?start_time=${start}&end_time=${end}&group_by=${grouping}&limit=31${cursor}`);
        read.push(next);
        page = next.next_page;
      }
      setPages(read);
      setError('');
    } catch (failure) {
      setError(String((failure as Error).message));
    }
  };
  const rows = pages && buildMarginTable(pages, grouping);
  return html`
    <section aria-labelledby="margins-title" class="margins">
      <h2 id="margins-title">Margins</h2>
      <form class="controls" onSubmit=${load}>
        <label>Last days<input name="margin-days" inputMode="numeric" value=${days} onInput=${(e: Event) => setDays((e.target as HTMLInputElement).value)} /></label>
        <label>Group by<select name="margin-group" value=${grouping} onChange=${(e: Event) => setGrouping((e.target as HTMLSelectElement).value as MarginGrouping)}>
          <option value="model">model</option><option value="deployment">deployment</option><option value="organization">organization</option>
        </select></label>
        <button type="submit">Show margins</button>
      </form>
      ${error && html`<p role="alert" class="error">${error}</p>`}
      ${rows && html`
        <table>
          <thead><tr>${HEADINGS.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
          <tbody>${rows.map((row) => html`<tr data-group=${row.group} data-margin-micros=${String(row.marginMicros)}>${marginCells(row).map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody>
        </table>`}
    </section>`;
}
