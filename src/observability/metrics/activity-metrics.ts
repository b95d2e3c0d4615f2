// Counters and histograms fed as things happen: upstream calls, charges, group commits, refusals.
// Each keeps its labelled children per series (model, endpoint, organization) so recording is a lookup.
import type { Registry } from 'prom-client';
import { HotCounter, HotHistogram, type CounterSeries, type HistogramSeries } from './hot-metrics';
import type { UpstreamCallObserver } from '../../upstream/upstream.client';
import type { BillingObserver } from '../../billing/billing.service';
import { OTHER_ORGANIZATION, SeriesCache } from './label-values';

export const UPSTREAM_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
export const APPEND_DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
export const COMMIT_BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

interface ChargeSeries {
  charged: CounterSeries;
  cost: CounterSeries;
  disputed: CounterSeries | null;
}

export type RefusalReason = 'rate_limited' | 'limiter_unavailable' | 'budget_exceeded';

export class ActivityMetrics implements UpstreamCallObserver, BillingObserver {
  private readonly upstreamCalls: HotCounter<'model' | 'outcome'>;
  private readonly upstreamDuration: HotHistogram<'model'>;
  private readonly chargedRequests: HotCounter<'model' | 'endpoint'>;
  private readonly cost: HotCounter<'model' | 'endpoint'>;
  private readonly disputed: HotCounter<'model' | 'endpoint'>;
  private readonly appendDuration: HotHistogram<never>;
  private readonly appendSeries: HistogramSeries;
  private readonly commitBatch: HotHistogram<never>;
  private readonly commitSeries: HistogramSeries;
  private readonly inlineCommits: CounterSeries;
  private readonly refusals: HotCounter<'organization' | 'reason'>;
  private readonly calls: SeriesCache<CounterSeries>;
  private readonly callDurations = new Map<string, HistogramSeries>();
  private readonly charges: SeriesCache<ChargeSeries>;
  private readonly refused: SeriesCache<CounterSeries>;

  constructor(registry: Registry, private readonly organizations: ReadonlySet<string>) {
    this.upstreamCalls = new HotCounter({ name: 'gateway_upstream_requests_total', help: 'Calls to model upstreams by model and outcome (ok, or the error code the gateway answered with).', labelNames: ['model', 'outcome'], registry });
    this.upstreamDuration = new HotHistogram({ name: 'gateway_upstream_request_duration_seconds', help: "Time from sending a call to a model upstream to its answer's headers (or its failure), by model.", labelNames: ['model'], buckets: UPSTREAM_DURATION_BUCKETS, registry });
    this.chargedRequests = new HotCounter({ name: 'gateway_billing_charged_requests_total', help: 'Requests charged (UsageMeasured and CostPriced appended or spooled), by model and endpoint.', labelNames: ['model', 'endpoint'], registry });
    this.cost = new HotCounter({ name: 'gateway_billing_cost_usd_micros_total', help: 'Cost charged in whole micro-dollars by model and endpoint; exact up to 2^53 micros, the costs API is the ledger.', labelNames: ['model', 'endpoint'], registry });
    this.disputed = new HotCounter({ name: 'gateway_billing_disputed_usages_total', help: 'Charges whose upstream usage report broke a hard plausibility bound (a hard UsageDisputed), by model and endpoint.', labelNames: ['model', 'endpoint'], registry });
    this.appendDuration = new HotHistogram({ name: 'gateway_billing_append_duration_seconds', help: "Time to append a request's billing events to the event store (successful appends).", labelNames: [], buckets: APPEND_DURATION_BUCKETS, registry });
    this.commitBatch = new HotHistogram({ name: 'gateway_event_store_commit_batch_size', help: 'Append requests that shared one SQLite commit (group commit).', labelNames: [], buckets: COMMIT_BATCH_BUCKETS, registry });
    this.refusals = new HotCounter({ name: 'gateway_refusals_total', help: 'Requests refused by the rate limit (rate_limited), because the limiter could not decide (limiter_unavailable) or by a spend limit (budget_exceeded), by organization (unconfigured: other).', labelNames: ['organization', 'reason'], registry });
    this.appendSeries = this.appendDuration.with({});
    this.commitSeries = this.commitBatch.with({});
    this.inlineCommits = new HotCounter({ name: 'gateway_event_store_inline_commits_total', help: 'SQLite commits made on the main thread because the append worker was idle (GATEWAY_STORE_INLINE_COMMITS).', labelNames: [], registry }).with({});
    this.calls = new SeriesCache((model, outcome) => this.upstreamCalls.with({ model, outcome }));
    this.charges = new SeriesCache((model, endpoint) => ({ charged: this.chargedRequests.with({ model, endpoint }), cost: this.cost.with({ model, endpoint }), disputed: null }));
    this.refused = new SeriesCache((organization, reason) => this.refusals.with({ organization, reason }));
  }

  upstreamCall(modelId: string, outcome: string, seconds: number): void {
    this.calls.get(modelId, outcome).value += 1;
    let duration = this.callDurations.get(modelId);
    if (duration === undefined) {
      duration = this.upstreamDuration.with({ model: modelId });
      this.callDurations.set(modelId, duration);
    }
    this.upstreamDuration.observe(duration, seconds);
  }

  /** `costUsdMicros` is a whole number (null: the model has no price), so the float64 sum stays exact below 2^53. */
  charged(modelId: string, endpoint: string, costUsdMicros: number | null, disputed: boolean): void {
    const series = this.charges.get(modelId, endpoint);
    series.charged.value += 1;
    series.cost.value += costUsdMicros ?? 0;
    if (disputed) {
      series.disputed ??= this.disputed.with({ model: modelId, endpoint });
      series.disputed.value += 1;
    }
  }

  appended(seconds: number): void {
    this.appendDuration.observe(this.appendSeries, seconds);
  }

  committed(batchSize: number, onMainThread: boolean): void {
    this.commitBatch.observe(this.commitSeries, batchSize);
    if (onMainThread) this.inlineCommits.value += 1;
  }

  refusal(organizationId: string, reason: RefusalReason): void {
    this.refused.get(this.organizations.has(organizationId) ? organizationId : OTHER_ORGANIZATION, reason).value += 1;
  }
}
