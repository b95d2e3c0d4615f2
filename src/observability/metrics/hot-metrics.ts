// Counters and histograms for the request path. prom-client's own `inc`/`observe` hash the label values
// into a string key and validate them on every call, even through a cached child (about 0.3 to 1 µs per
// call, several calls per request). These keep each series as a plain object the caller holds: recording
// is an addition (and, for a histogram, a short bucket search). They register in a prom-client Registry
// as metrics do, giving it their samples through `get()` when it is scraped, so the exposition stays
// prom-client's.
import type { Metric, Registry } from 'prom-client';

/** What a prom-client Registry reads from a metric when it renders the exposition. */
export interface Sampled {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Sample[];
}

interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  /** The series' labels, rendered once per scrape and cached by the registry (as prom-client's histograms do). */
  sharedLabels?: Record<string, string>;
  value: number;
}

type Labels<L extends string> = Record<L, string>;

export interface CounterSeries {
  value: number;
}

export interface HistogramSeries {
  /** Per bucket (not cumulative), the last one for values past every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

interface Described<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registry: Registry;
}

abstract class HotMetric<L extends string, S> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = 'sum' as const;
  abstract readonly type: 'counter' | 'histogram';
  protected readonly series: { labels: Labels<L>; series: S }[] = [];

  constructor(description: Described<L>) {
    this.name = description.name;
    this.help = description.help;
    description.registry.registerMetric(this as unknown as Metric);
  }

  /** A new series; callers keep it (one per label set: creating the same set twice is a bug). */
  with(labels: Labels<L>): S {
    const series = this.create();
    this.series.push({ labels: { ...labels }, series });
    return series;
  }

  protected abstract create(): S;
  abstract get(): Promise<Sampled>;

  protected describe(values: Sample[]): Sampled {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

export class HotCounter<L extends string> extends HotMetric<L, CounterSeries> {
  readonly type = 'counter' as const;

  protected create(): CounterSeries {
    return { value: 0 };
  }

  async get(): Promise<Sampled> {
    return this.describe(this.series.map(({ labels, series }) => ({ labels, value: series.value })));
  }

  reset(): void {
    for (const { series } of this.series) series.value = 0;
  }
}

export class HotHistogram<L extends string> extends HotMetric<L, HistogramSeries> {
  readonly type = 'histogram' as const;
  private readonly bounds: Float64Array;

  constructor(description: Described<L> & { buckets: readonly number[] }) {
    super(description);
    this.bounds = Float64Array.from([...description.buckets].sort((a, b) => a - b));
  }

  /** Records `value` (an `le` bucket counts values at or below its bound, as Prometheus defines it). */
  observe(series: HistogramSeries, value: number): void {
    const bounds = this.bounds;
    let index = 0;
    while (index < bounds.length && value > bounds[index]) index += 1;
    series.counts[index] += 1;
    series.sum += value;
    series.count += 1;
  }

  protected create(): HistogramSeries {
    return { counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
  }

  /** What the registry renders: `le` first, then the series' labels, as prom-client's own histograms. */
  async getForPromString(): Promise<Sampled> {
    const values: Sample[] = [];
    for (const { labels, series } of this.series) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += series.counts[index];
        values.push({ metricName: `${this.name}_bucket`, labels: { le: bound }, sharedLabels: labels, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf' }, sharedLabels: labels, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: {}, sharedLabels: labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: {}, sharedLabels: labels, value: series.count });
    }
    return this.describe(values);
  }

  /** The same samples with each one's labels in one object (getMetricsAsJSON). */
  async get(): Promise<Sampled> {
    const data = await this.getForPromString();
    return { ...data, values: data.values.map(({ metricName, labels, sharedLabels, value }) => ({ metricName, labels: { ...labels, ...sharedLabels }, value })) };
  }

  reset(): void {
    for (const { series } of this.series) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
