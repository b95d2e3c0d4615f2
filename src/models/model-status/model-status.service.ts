// Probes each upstream's readiness on an interval and records `ModelStatusChanged` only on a change.
// The status served by /v1/models and the cold-model gate comes from the model-status projection
// (folded events, shared by every replica); probes that see no change only refresh its freshness.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { CatalogService } from '../../catalog/catalog.service';
import type { ProbeConfig } from '../../config/gateway-config';
import type { EventStore } from '../../event-store/event-store.port';
import { eventIdFor } from '../../event-store/event-ids';
import type { ModelStatusChangedV1 } from './model-status.events';
import type { UpstreamClient } from '../../upstream/upstream.client';
import type { ModelStatusReader } from '../model-gate/model-gate';
import type { BackgroundService } from '../../common/background-service';
import { ModelStatusProjection } from './model-status.projection';
import type { ModelStatusEntry } from './model-status.fold';
import type { Projection } from '../../projections/projection-runner';
import { deploymentsOf, healthUrlOfDeployment } from '../../routing/catalog-deployments';
import { recordDeploymentStatus } from '../../routing/deployment-status-events';

export type ModelStatus = 'warm' | 'cold';

interface ServedStatus {
  status: ModelStatus;
  observedAtMs: number;
}

export function healthUrlOf(model: CatalogModel): string {
  return model.upstream.health_url ?? `${new URL(model.upstream.base_url).origin}/health`;
}

export class ModelStatusService implements ModelStatusReader, BackgroundService {
  readonly name = 'model_status';
  private readonly projection: ModelStatusProjection;
  /** The served statuses, their `observedAt` parsed once per change rather than on every request. */
  private statuses = new Map<string, ServedStatus>();
  /**
   * Changes this replica appended that the projection has not folded yet. They stay served when a page about
   * another model replaces the served statuses: else the next probe or refused request would find the old
   * status and record the same change twice (seen as warm, cold, cold, warm under load).
   */
  private readonly unfolded = new Map<string, ServedStatus>();
  /** Unix ms of the last local observation that confirmed a model's current status. */
  private readonly confirmedAt = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private probedOnce = false;
  /** Set at stop: a probe still in flight then records nothing, so no event follows the projections' drain. */
  private stopped = false;

  constructor(
    private readonly catalog: CatalogService,
    private readonly store: EventStore,
    private readonly upstream: UpstreamClient,
    private readonly probe: ProbeConfig,
    readModels: Database.Database,
    /**
     * How long a probe may take before it counts as no answer (cold); default: the interval, at most 5 s.
     * Tests raise it (RuntimeOverrides.probeTimeoutMs): an in-process simulator on a busy machine answers
     * late, and a late answer must not turn a healthy model cold under them.
     */
    private readonly probeTimeoutMs: number = Math.min(probe.interval_ms, 5000),
  ) {
    this.projection = new ModelStatusProjection(readModels);
    upstream.router.listen({ deploymentChanged: (model, change) => void (this.stopped ? undefined : recordDeploymentStatus(store, model, change)) });
  }

  /** The model-status projection for the ProjectionHub; the served statuses follow each page it applies. */
  readonly consumer: Projection = {
    name: 'model-status',
    checkpoint: () => this.projection.checkpoint(),
    apply: (event) => this.consumer.applyPage([event]),
    applyPage: (events) => {
      this.projection.applyPage(events);
      if (events.some((event) => event.type === 'ModelStatusChanged')) this.serve(this.projection.statuses());
    },
  };

  /** Starts probing; call after the ProjectionHub caught the projection up. */
  start(): void {
    this.serve(this.projection.statuses());
    void this.probeAll();
    this.timer = setInterval(() => void this.probeAll(), this.probe.interval_ms);
    this.timer.unref();
  }

  ready(): boolean {
    return this.probedOnce;
  }

  /** The status when it was confirmed within `stale_after_intervals` probe intervals; otherwise unknown. */
  publicStatus(modelId: string): ModelStatus | undefined {
    const entry = this.statuses.get(modelId);
    if (!entry) return undefined;
    const confirmed = Math.max(entry.observedAtMs, this.confirmedAt.get(modelId) ?? 0);
    return Date.now() - confirmed <= this.probe.interval_ms * this.probe.stale_after_intervals ? entry.status : undefined;
  }

  isCold(modelId: string): boolean {
    return this.publicStatus(modelId) === 'cold';
  }

  /** A readiness request is how a scaled-to-zero front learns it is wanted (docs/model-status.md). */
  nudge(model: CatalogModel): void {
    for (const deployment of deploymentsOf(model)) void this.upstream.probe(healthUrlOfDeployment(deployment), 2000);
  }

  async observe(model: CatalogModel, status: ModelStatus, reason: string): Promise<void> {
    if (this.stopped) return;
    const now = Date.now();
    const current = this.statuses.get(model.id);
    if (current?.status === status) {
      this.confirmedAt.set(model.id, now);
      return;
    }
    const event: ModelStatusChangedV1 = { model: model.id, status, previous: current?.status ?? null, observedAt: new Date(now).toISOString(), reason };
    const observed = { status, observedAtMs: now };
    this.statuses = new Map(this.statuses).set(model.id, observed);
    this.unfolded.set(model.id, observed);
    this.confirmedAt.set(model.id, now);
    await this.store
      .append(`model-status-${model.id}`, [{ id: eventIdFor(randomUUID(), 'ModelStatusChanged'), type: 'ModelStatusChanged', data: event }])
      // A lost change is the projection's to serve again, so the next observation records it anew.
      .catch(() => this.unfolded.get(model.id) === observed && this.unfolded.delete(model.id));
  }

  /** The projection's statuses, with this replica's changes it has not folded yet kept in place. */
  private serve(entries: Map<string, ModelStatusEntry>): void {
    const next = new Map([...entries].map(([modelId, entry]) => [modelId, { status: entry.status, observedAtMs: Date.parse(entry.observedAt) }]));
    for (const [modelId, local] of this.unfolded) {
      const folded = next.get(modelId);
      if (folded === undefined || folded.observedAtMs < local.observedAtMs) next.set(modelId, local);
      else this.unfolded.delete(modelId);
    }
    this.statuses = next;
  }

  /**
   * Probes every deployment; the model is warm while any deployment is and cold only when all are
   * (src/routing/deployment-fleet.ts). A deployment turns cold after consecutive failed probes, or at
   * once when it answers 503 + Retry-After itself, so one slow probe never turns a model cold.
   */
  private async probeAll(): Promise<void> {
    await Promise.all(
      this.catalog.all().map(async (model) => {
        const answers = await Promise.all(deploymentsOf(model).map((deployment) => this.probeDeployment(model, deployment.id, healthUrlOfDeployment(deployment))));
        const status = this.upstream.router.fleetOf(model).modelStatus();
        if (status !== 'unknown') await this.observe(model, status, `health probes answered ${answers.join(', ')}`);
      }),
    );
    this.probedOnce = true;
  }

  private async probeDeployment(model: CatalogModel, deploymentId: string, url: string): Promise<string> {
    const result = await this.upstream.probe(url, this.probeTimeoutMs);
    const answer = String(result.status || 'no connection');
    if (result.status === 503 && result.retryAfter !== undefined) this.upstream.router.saidCold(model, deploymentId);
    else this.upstream.router.probed(model, deploymentId, result.status === 200, `health probe answered ${answer}`);
    return answer;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }
}
