// Requests by route pattern, method and status; whole-request latency by route; time to first byte of
// streamed answers. Each series is created once and kept, so a request costs two map lookups, an
// array index and a few additions (hot-metrics.ts).
import type { Registry } from 'prom-client';
import { HotCounter, HotHistogram, type CounterSeries, type HistogramSeries } from './hot-metrics';
import { SeriesCache, methodLabel, statusLabel } from './label-values';

/** Seconds; from a cached health check to a long transcription or a minutes-long stream. */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
export const TTFB_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface RouteSeries {
  route: string;
  method: string;
  duration: HistogramSeries;
  ttfb: HistogramSeries | null;
  /** Indexed by status code. */
  byStatus: (CounterSeries | undefined)[];
}

export class HttpMetrics {
  private readonly requests: HotCounter<'route' | 'method' | 'status'>;
  private readonly duration: HotHistogram<'route' | 'method'>;
  private readonly ttfb: HotHistogram<'route' | 'method'>;
  private readonly series: SeriesCache<RouteSeries>;

  constructor(registry: Registry) {
    this.requests = new HotCounter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered, by route pattern (unmatched for no route), method and status.',
      labelNames: ['route', 'method', 'status'],
      registry,
    });
    this.duration = new HotHistogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Whole request time, from the request arriving to the last byte of the answer, by route pattern and method.',
      labelNames: ['route', 'method'],
      buckets: HTTP_DURATION_BUCKETS,
      registry,
    });
    this.ttfb = new HotHistogram({
      name: 'gateway_http_time_to_first_byte_seconds',
      help: 'Streamed answers (SSE, streamed audio): time from the request arriving to the first body byte written.',
      labelNames: ['route', 'method'],
      buckets: TTFB_BUCKETS,
      registry,
    });
    this.series = new SeriesCache((route, method) => ({ route, method, duration: this.duration.with({ route, method }), ttfb: null, byStatus: [] }));
  }

  /** One answered request; `route` is the matched pattern, never the URL. */
  answered(route: string, method: string, status: number, seconds: number): void {
    const series = this.series.get(route, methodLabel(method));
    let counter = series.byStatus[status];
    if (counter === undefined) {
      counter = this.requests.with({ route: series.route, method: series.method, status: statusLabel(status) });
      series.byStatus[status] = counter;
    }
    counter.value += 1;
    this.duration.observe(series.duration, seconds);
  }

  /** The first body byte of a streamed answer left. */
  firstByte(route: string, method: string, seconds: number): void {
    const series = this.series.get(route, methodLabel(method));
    series.ttfb ??= this.ttfb.with({ route: series.route, method: series.method });
    this.ttfb.observe(series.ttfb, seconds);
  }
}
