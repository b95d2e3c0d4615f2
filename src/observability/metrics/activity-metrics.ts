// Counters and histograms fed as things happen: upstream calls, charges, group commits, refusals.
// Each keeps its labelled children per series (model, endpoint, organization) so recording is a lookup.
import { Counter, Histogram, type Registry } from 'prom-client';
import type { UpstreamCallObserver } from '../../upstream/upstream.client';
import type { BillingObserver } from '../../billing/billing.service';
import { OTHER_ORGANIZATION, SeriesCache } from './label-values';

export const UPSTREAM_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
export const APPEND_DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
export const COMMIT_BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

interface ChargeSeries {
  charged: Counter.Internal;
  cost: Counter.Internal;
  disputed: Counter.Internal | null;
}

export type RefusalReason = 'rate_limited' | 'limiter_unavailable';

export class ActivityMetrics implements UpstreamCallObserver, BillingObserver {
  private readonly upstreamCalls: Counter<'model' | 'outcome'>;
  private readonly upstreamDuration: Histogram<'model'>;
  private readonly chargedRequests: Counter<'model' | 'endpoint'>;
  private readonly cost: Counter<'model' | 'endpoint'>;
  private readonly disputed: Counter<'model' | 'endpoint'>;
  private readonly appendDuration: Histogram;
  private readonly commitBatch: Histogram;
  private readonly refusals: Counter<'organization' | 'reason'>;
  private readonly calls: SeriesCache<Counter.Internal>;
  private readonly callDurations = new Map<string, Histogram.Internal<'model'>>();
  private readonly charges: SeriesCache<ChargeSeries>;
  private readonly refused: SeriesCache<Counter.Internal>;

  constructor(registry: Registry, private readonly organizations: ReadonlySet<string>) {
    const registers = [registry];
    this.upstreamCalls = new Counter({ name: 'gateway_upstream_requests_total', help: 'Calls to model upstreams by model and outcome (ok, or the error code the gateway answered with).', labelNames: ['model', 'outcome'], registers });
    this.upstreamDuration = new Histogram({ name: 'gateway_upstream_request_duration_seconds', help: "Time from sending a call to a model upstream to its answer's headers (or its failure), by model.", labelNames: ['model'], buckets: UPSTREAM_DURATION_BUCKETS, registers });
    this.chargedRequests = new Counter({ name: 'gateway_billing_charged_requests_total', help: 'Requests charged (UsageMeasured and CostPriced appended or spooled), by model and endpoint.', labelNames: ['model', 'endpoint'], registers });
    this.cost = new Counter({ name: 'gateway_billing_cost_usd_micros_total', help: 'Cost charged in whole micro-dollars by model and endpoint; exact up to 2^53 micros, the costs API is the ledger.', labelNames: ['model', 'endpoint'], registers });
    this.disputed = new Counter({ name: 'gateway_billing_disputed_usages_total', help: 'Charges whose upstream usage report broke a plausibility bound (UsageDisputed), by model and endpoint.', labelNames: ['model', 'endpoint'], registers });
    this.appendDuration = new Histogram({ name: 'gateway_billing_append_duration_seconds', help: "Time to append a request's billing events to the event store (successful appends).", buckets: APPEND_DURATION_BUCKETS, registers });
    this.commitBatch = new Histogram({ name: 'gateway_event_store_commit_batch_size', help: 'Append requests that shared one SQLite commit (group commit).', buckets: COMMIT_BATCH_BUCKETS, registers });
    this.refusals = new Counter({ name: 'gateway_refusals_total', help: 'Requests refused by the rate limit (rate_limited) or because the limiter could not decide (limiter_unavailable), by organization (unconfigured: other).', labelNames: ['organization', 'reason'], registers });
    this.calls = new SeriesCache((model, outcome) => this.upstreamCalls.labels(model, outcome));
    this.charges = new SeriesCache((model, endpoint) => ({ charged: this.chargedRequests.labels(model, endpoint), cost: this.cost.labels(model, endpoint), disputed: null }));
    this.refused = new SeriesCache((organization, reason) => this.refusals.labels(organization, reason));
  }

  upstreamCall(modelId: string, outcome: string, seconds: number): void {
    this.calls.get(modelId, outcome).inc();
    let duration = this.callDurations.get(modelId);
    if (duration === undefined) {
      duration = this.upstreamDuration.labels(modelId);
      this.callDurations.set(modelId, duration);
    }
    duration.observe(seconds);
  }

  /** `costUsdMicros` is a whole number (null: the model has no price), so the float64 sum stays exact below 2^53. */
  charged(modelId: string, endpoint: string, costUsdMicros: number | null, disputed: boolean): void {
    const series = this.charges.get(modelId, endpoint);
    series.charged.inc();
    series.cost.inc(costUsdMicros ?? 0);
    if (disputed) {
      series.disputed ??= this.disputed.labels(modelId, endpoint);
      series.disputed.inc();
    }
  }

  appended(seconds: number): void {
    this.appendDuration.observe(seconds);
  }

  committed(batchSize: number): void {
    this.commitBatch.observe(batchSize);
  }

  refusal(organizationId: string, reason: RefusalReason): void {
    this.refused.get(this.organizations.has(organizationId) ? organizationId : OTHER_ORGANIZATION, reason).inc();
  }
}
