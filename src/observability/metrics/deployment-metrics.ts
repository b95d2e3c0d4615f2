// Per-deployment routing metrics (docs/routing.md, docs/observability.md): attempts by outcome, time to
// first byte, ejections and retries as they happen; in flight, status and the retry budget used when
// scraped. Label values are the catalog's model and deployment ids only.
import { Gauge, type Registry } from 'prom-client';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { Router, RoutingListener } from '../../routing/router';
import type { StatusChange } from '../../routing/deployment-fleet';
import type { AttemptOutcome } from '../../routing/routing.events';
import { HotCounter, HotHistogram, type CounterSeries, type HistogramSeries } from './hot-metrics';
import { SeriesCache } from './label-values';
import { UPSTREAM_DURATION_BUCKETS } from './activity-metrics';

const DEPLOYMENT_STATES = ['warm', 'cold', 'unknown', 'ejected'] as const;

export class DeploymentMetrics implements RoutingListener {
  private readonly attempts: HotCounter<'model' | 'deployment' | 'outcome'>;
  private readonly ttfb: HotHistogram<'model' | 'deployment'>;
  private readonly ejections: HotCounter<'model' | 'deployment'>;
  private readonly retries: HotCounter<'model'>;
  private readonly attemptSeries = new Map<string, SeriesCache<CounterSeries>>();
  private readonly ttfbSeries: SeriesCache<HistogramSeries>;
  private readonly ejectionSeries: SeriesCache<CounterSeries>;
  private readonly retrySeries = new Map<string, CounterSeries>();

  constructor(registry: Registry, router: Router, models: () => CatalogModel[]) {
    this.attempts = new HotCounter({ name: 'gateway_deployment_attempts_total', help: 'Upstream attempts by model, deployment and outcome (served, connect_error, timeout, upstream_5xx, upstream_429, cold, aborted, rejected).', labelNames: ['model', 'deployment', 'outcome'], registry });
    this.ttfb = new HotHistogram({ name: 'gateway_deployment_time_to_first_byte_seconds', help: 'Time from sending an attempt to its response head, served attempts only, by model and deployment.', labelNames: ['model', 'deployment'], buckets: UPSTREAM_DURATION_BUCKETS, registry });
    this.ejections = new HotCounter({ name: 'gateway_deployment_ejections_total', help: 'Passive ejections of a deployment after consecutive failed requests.', labelNames: ['model', 'deployment'], registry });
    this.retries = new HotCounter({ name: 'gateway_deployment_retries_total', help: 'Failed attempts retried on another deployment, by model (within the retry budget).', labelNames: ['model'], registry });
    this.ttfbSeries = new SeriesCache((model, deployment) => this.ttfb.with({ model, deployment }));
    this.ejectionSeries = new SeriesCache((model, deployment) => this.ejections.with({ model, deployment }));
    registerDeploymentGauges(registry, router, models);
  }

  attempted(model: CatalogModel, deploymentId: string, outcome: AttemptOutcome, seconds: number): void {
    let byModel = this.attemptSeries.get(model.id);
    if (!byModel) this.attemptSeries.set(model.id, (byModel = new SeriesCache((deployment, o) => this.attempts.with({ model: model.id, deployment, outcome: o }))));
    byModel.get(deploymentId, outcome).value += 1;
    if (outcome === 'served') this.ttfb.observe(this.ttfbSeries.get(model.id, deploymentId), seconds);
  }

  deploymentChanged(model: CatalogModel, change: StatusChange): void {
    if (change.status === 'ejected') this.ejectionSeries.get(model.id, change.deploymentId).value += 1;
  }

  retried(model: CatalogModel): void {
    let series = this.retrySeries.get(model.id);
    if (!series) this.retrySeries.set(model.id, (series = this.retries.with({ model: model.id })));
    series.value += 1;
  }
}

function registerDeploymentGauges(registry: Registry, router: Router, models: () => CatalogModel[]): void {
  const registers = [registry];
  new Gauge({
    name: 'gateway_deployment_in_flight', help: 'Requests in flight per deployment (what the picker weighs).', labelNames: ['model', 'deployment'], registers,
    collect() {
      this.reset();
      for (const model of models()) for (const s of router.fleetOf(model).all()) this.labels(model.id, s.config.id).set(s.inFlight);
    },
  });
  new Gauge({
    name: 'gateway_deployment_status', help: "1 on each deployment's current state in this replica (warm, cold, unknown, ejected).", labelNames: ['model', 'deployment', 'state'], registers,
    collect() {
      this.reset();
      const now = Date.now();
      for (const model of models()) {
        for (const s of router.fleetOf(model).all()) {
          const current = s.health.isEjected(now) ? 'ejected' : s.health.status;
          for (const state of DEPLOYMENT_STATES) this.labels(model.id, s.config.id, state).set(state === current ? 1 : 0);
        }
      }
    },
  });
  new Gauge({
    name: 'gateway_retry_budget_used_ratio', help: "Retries over the model's requests in the retry budget's window (10 s); the budget allows 0.2 plus 3 a second.", labelNames: ['model'], registers,
    collect() {
      this.reset();
      const now = Date.now();
      for (const model of models()) {
        const { retries, requests } = router.fleetOf(model).budget.used(now);
        this.labels(model.id).set(requests === 0 ? 0 : retries / requests);
      }
    },
  });
}
