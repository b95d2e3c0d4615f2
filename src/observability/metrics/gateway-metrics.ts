// The gateway's Prometheus registry: one per gateway (tests run several in one process), with Node's
// process metrics, the request-path metrics and the gauges read at scrape time.
import { collectDefaultMetrics, Registry } from 'prom-client';
import { ActivityMetrics } from './activity-metrics';
import { HttpMetrics } from './http-metrics';
import { MediaMetrics } from './media-metrics';
import { registerStateMetrics, type StateSources } from './state-metrics';

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly http: HttpMetrics;
  readonly activity: ActivityMetrics;
  readonly media: MediaMetrics;

  /** `organizations`: the configured ids, the only values of the organization label (others: `other`). */
  constructor(organizations: Iterable<string>) {
    collectDefaultMetrics({ register: this.registry });
    this.http = new HttpMetrics(this.registry);
    this.activity = new ActivityMetrics(this.registry, new Set(organizations));
    this.media = new MediaMetrics(this.registry, new Set(organizations));
  }

  /** Called once the runtime's parts exist: the gauges read them when scraped. */
  watch(sources: StateSources): void {
    registerStateMetrics(this.registry, sources);
  }
}
