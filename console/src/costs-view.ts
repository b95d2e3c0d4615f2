import { useEffect, useState } from 'preact/hooks';
import { html } from './html';
import { apiGet, apiJson, type Session } from './api';
import { CostChart } from './chart';
import { buildCostTable, joinCsvPages, utcDay, type CostPageJson, type CostTable, type Grouping } from '../lib/cost-table';
import { formatUsd } from '../lib/money';

const DAY = 86_400;
const GROUPINGS: [Grouping, string][] = [['model', 'Model'], ['line_item', 'Line item'], ['api_key_id', 'API key']];

const todaySeconds = () => Math.floor(Date.now() / 1000 / DAY) * DAY;
const dayInputValue = (seconds: number) => utcDay(seconds);
const secondsOfDayInput = (value: string) => Date.parse(`${value}T00:00:00Z`) / 1000;

function costQuery(from: string, to: string, grouping: Grouping): string {
  return `start_time=${secondsOfDayInput(from)}&end_time=${secondsOfDayInput(to) + DAY}&limit=31&group_by=${grouping}`;
}

/** Every page of the range (31 days a page), following next_page. */
async function fetchAllPages(session: Session, query: string): Promise<CostPageJson[]> {
  const pages: CostPageJson[] = [];
  let page: string | null = null;
  do {
    const next: CostPageJson = await apiJson<CostPageJson>(session, `/v1/organization/costs?${query}${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    pages.push(next);
    page = next.next_page;
  } while (page);
  return pages;
}

/** The API's own CSV, every page of it (cursor in x-next-page), as one file. */
async function downloadCsv(session: Session, query: string, fileName: string): Promise<void> {
  const pages: string[] = [];
  let page: string | null = null;
  do {
    const response = await apiGet(session, `/v1/organization/costs?${query}${page ? `&page=${encodeURIComponent(page)}` : ''}`, 'text/csv');
    pages.push(await response.text());
    page = response.headers.get('x-next-page');
  } while (page);
  const url = URL.createObjectURL(new Blob([joinCsvPages(pages)], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function CostsView({ session }: { session: Session }) {
  const [from, setFrom] = useState(dayInputValue(todaySeconds() - 29 * DAY));
  const [to, setTo] = useState(dayInputValue(todaySeconds()));
  const [grouping, setGrouping] = useState<Grouping>('model');
  const [table, setTable] = useState<CostTable | null>(null);
  const [error, setError] = useState('');

  const load = async () => {
    setError('');
    if (!from || !to || secondsOfDayInput(to) < secondsOfDayInput(from)) {
      setError('The range must end on or after its first day.');
      return;
    }
    try {
      setTable(buildCostTable(await fetchAllPages(session, costQuery(from, to, grouping)), grouping));
    } catch (failure) {
      setTable(null);
      setError(String((failure as Error).message ?? failure));
    }
  };
  useEffect(() => void load(), [session, grouping]);

  const submit = (event: Event) => {
    event.preventDefault();
    void load();
  };
  const download = () => downloadCsv(session, costQuery(from, to, grouping), `costs_${from}_${to}_by_${grouping}.csv`).catch((failure) => setError(String(failure.message)));

  return html`
    <section aria-labelledby="costs-title">
      <h2 id="costs-title">Costs</h2>
      <form class="controls" onSubmit=${submit}>
        <label>From <input type="date" name="from" value=${from} required onInput=${(e: Event) => setFrom((e.target as HTMLInputElement).value)} /></label>
        <label>To <input type="date" name="to" value=${to} required onInput=${(e: Event) => setTo((e.target as HTMLInputElement).value)} /></label>
        <label>Stack by
          <select name="grouping" value=${grouping} onChange=${(e: Event) => setGrouping((e.target as HTMLSelectElement).value as Grouping)}>
            ${GROUPINGS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
          </select>
        </label>
        <button type="submit">Show</button>
        <button type="button" onClick=${download}>Download CSV</button>
      </form>
      ${error && html`<p role="alert" class="error">${error}</p>`}
      ${table && html`
        <p class="range-total">Total for the range: <strong data-testid="range-total">${formatUsd(table.total)}</strong></p>
        <${CostChart} table=${table} />
        <${CostTableView} table=${table} />`}
    </section>`;
}

function CostTableView({ table }: { table: CostTable }) {
  return html`
    <div class="table-scroll" tabindex="0" role="region" aria-label="Daily costs table">
      <table class="costs">
        <caption>Daily spend in USD, by ${table.groups.length} group${table.groups.length === 1 ? '' : 's'}</caption>
        <thead><tr><th scope="col">Day (UTC)</th>${table.groups.map((label) => html`<th scope="col">${label}</th>`)}<th scope="col">Total</th></tr></thead>
        <tbody>
          ${table.days.map((day, index) => html`
            <tr>
              <th scope="row">${utcDay(day)}</th>
              ${table.groups.map((label) => html`<td>${formatUsd(table.cells.get(label)![index])}</td>`)}
              <td>${formatUsd(table.dayTotals[index])}</td>
            </tr>`)}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            ${table.groups.map((label) => html`<td>${formatUsd(table.groupTotals.get(label)!)}</td>`)}
            <td data-testid="table-total">${formatUsd(table.total)}</td>
          </tr>
        </tfoot>
      </table>
    </div>`;
}
