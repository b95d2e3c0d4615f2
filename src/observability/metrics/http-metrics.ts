// Requests by route pattern, method and status; whole-request latency by route; time to first byte of
// streamed answers. Children are created once per series and cached, so a request does two map
// lookups and an array index before prom-client's own increment.
import { Counter, Histogram, type Registry } from 'prom-client';
import { SeriesCache, methodLabel, statusLabel } from './label-values';

/** Seconds; from a cached health check to a long transcription or a minutes-long stream. */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
export const TTFB_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface RouteSeries {
  route: string;
  method: string;
  duration: Histogram.Internal<'route' | 'method'>;
  ttfb: Histogram.Internal<'route' | 'method'> | null;
  /** Indexed by status code. */
  byStatus: (Counter.Internal | undefined)[];
}

export class HttpMetrics {
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly duration: Histogram<'route' | 'method'>;
  private readonly ttfb: Histogram<'route' | 'method'>;
  private readonly series: SeriesCache<RouteSeries>;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered, by route pattern (unmatched for no route), method and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Whole request time, from the request arriving to the last byte of the answer, by route pattern and method.',
      labelNames: ['route', 'method'],
      buckets: HTTP_DURATION_BUCKETS,
      registers: [registry],
    });
    this.ttfb = new Histogram({
      name: 'gateway_http_time_to_first_byte_seconds',
      help: 'Streamed answers (SSE, streamed audio): time from the request arriving to the first body byte written.',
      labelNames: ['route', 'method'],
      buckets: TTFB_BUCKETS,
      registers: [registry],
    });
    this.series = new SeriesCache((route, method) => ({
      route,
      method,
      duration: this.duration.labels(route, method),
      ttfb: null,
      byStatus: [],
    }));
  }

  /** One answered request; `route` is the matched pattern, never the URL. */
  answered(route: string, method: string, status: number, seconds: number): void {
    const series = this.series.get(route, methodLabel(method));
    let counter = series.byStatus[status];
    if (counter === undefined) {
      counter = this.requests.labels(series.route, series.method, statusLabel(status));
      series.byStatus[status] = counter;
    }
    counter.inc();
    series.duration.observe(seconds);
  }

  /** The first body byte of a streamed answer left. */
  firstByte(route: string, method: string, seconds: number): void {
    const series = this.series.get(route, methodLabel(method));
    series.ttfb ??= this.ttfb.labels(series.route, series.method);
    series.ttfb.observe(seconds);
  }
}
