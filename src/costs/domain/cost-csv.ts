// The cost page as CSV (an extension: GET /v1/organization/costs with `Accept: text/csv`). Amounts are
// exact decimal USD strings with six decimals, never floats, so a spreadsheet's sum is the API's sum.
import type { CostGrouping } from './cost-query';
import type { MicrosBucket } from './cost-rows';
import { dayOfUnixSeconds } from './utc-day';

export const CSV_MEDIA_TYPE = 'text/csv';

/** Micros as USD with exactly six decimals: 1500250n -> "1.500250". */
export function microsToFixedUsd(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}

/** RFC 4180 quoting, plus a leading quote mark for text a spreadsheet would run as a formula. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line per result of the JSON page (empty days have none), CRLF line ends, a header first. */
export function renderCostCsv(buckets: readonly MicrosBucket[], groupBy: CostGrouping | null): string {
  const header = ['start_time', 'end_time', 'date', ...(groupBy ? [groupBy] : []), 'amount_usd', 'currency'];
  const lines = [header.join(',')];
  for (const { startTime, endTime, rows } of buckets) {
    for (const row of rows) {
      const group = groupBy ? [csvField(row.group ?? '')] : [];
      lines.push([String(startTime), String(endTime), dayOfUnixSeconds(startTime), ...group, microsToFixedUsd(row.amountUsdMicros), 'usd'].join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Whether the Accept header prefers CSV to JSON: text/csv listed with a q above that of any JSON
 * match (application/json, application/*, *\/*). No header, or JSON preferred or tied, is JSON.
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    if (type === 'text/csv') csv = Math.max(csv, q);
    else if (type === 'application/json' || type === 'application/*' || type === '*/*') json = Math.max(json, q);
  }
  return csv > 0 && csv > json;
}
