// Plain-text tables for the console report.

export type Cell = string | number;

function text(cell: Cell): string {
  if (typeof cell === 'string') return cell;
  if (!Number.isFinite(cell)) return '-';
  return Math.abs(cell) >= 100 ? cell.toFixed(0) : Math.abs(cell) >= 10 ? cell.toFixed(1) : cell.toFixed(2);
}

/** Left-aligned first column, right-aligned figures. */
export function table(title: string, headers: string[], rows: Cell[][]): string {
  const cells = [headers, ...rows.map((row) => row.map(text))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [`\n${title}`, line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}
