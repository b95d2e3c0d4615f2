import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { html } from './html';
import { stackedHeights, utcDay, type CostTable } from '../lib/cost-table';
import { formatUsd } from '../lib/money';

/** Colours with at least 3:1 contrast against the white plot area (WCAG non-text contrast). */
export const PALETTE = ['#1f5fa8', '#b8461b', '#2e7d32', '#6a3d9a', '#8a6d00', '#00707a', '#b0306a', '#4e5b6a'];
export const colourOf = (index: number) => PALETTE[index % PALETTE.length];

/** Stacked daily bars: series i is the cumulative height of groups i..n-1, drawn tallest first. */
export function CostChart({ table }: { table: CostTable }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const bars = uPlot.paths.bars!({ size: [0.7, 48] });
    const series = table.groups.map((label, index) => ({
      label,
      stroke: colourOf(index),
      fill: colourOf(index),
      width: 0,
      paths: bars,
      points: { show: false },
      value: (_u: uPlot, v: number | null) => (v === null ? '' : v.toFixed(6)),
    }));
    const data = [table.days, ...stackedHeights(table)] as uPlot.AlignedData;
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: 280,
        series: [{ label: 'Day', value: (_u: uPlot, v: number) => (v ? utcDay(v) : '') }, ...series],
        axes: [{ values: (_u: uPlot, ticks: number[]) => ticks.map((t) => utcDay(t).slice(5)) }, { size: 70, values: (_u: uPlot, ticks: number[]) => ticks.map((t) => `$${t}`) }],
        scales: { x: { time: false, range: (_u: uPlot, min: number, max: number) => [min - 43_200, max + 43_200] } },
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
      },
      data,
      element,
    );
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height: 280 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [table]);

  const summary = `Daily spend from ${utcDay(table.days[0])} to ${utcDay(table.days[table.days.length - 1])}, total ${formatUsd(table.total)}`;
  return html`
    <figure class="chart">
      <div ref=${box} role="img" aria-label=${summary} data-total-micros=${table.total.toString()}></div>
      <figcaption>
        <ul class="legend" aria-label="Chart legend">
          ${table.groups.map((label, index) => html`<li><span class="swatch" style=${{ background: colourOf(index) }}></span>${label} ${formatUsd(table.groupTotals.get(label)!)}</li>`)}
        </ul>
        <p class="chart-total">Chart total: <strong data-testid="chart-total">${formatUsd(table.total)}</strong></p>
      </figcaption>
    </figure>`;
}
