// Probes each upstream's readiness on an interval and records `ModelStatusChanged` only on a
// change; the status served by /v1/models and the cold-model gate comes from the folded events.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { CatalogService } from '../../catalog/catalog.service';
import type { ProbeConfig } from '../../config/gateway-config';
import type { EventStore, Subscription } from '../../event-store/event-store.port';
import { eventIdFor } from '../../event-store/event-ids';
import type { ModelStatusChangedV1 } from '../../billing/billing.events';
import type { UpstreamClient } from '../../upstream/upstream.client';
import type { ModelStatusReader } from '../../upstream/model-gate';
import type { BackgroundService } from '../../core/gateway-runtime';
import { confirmModelStatus, evolveModelStatus, freshStatus, ModelStatus, ModelStatusState } from './model-status';
import { randomUUID } from 'node:crypto';

export function healthUrlOf(model: CatalogModel): string {
  return model.upstream.health_url ?? `${new URL(model.upstream.base_url).origin}/health`;
}

export class ModelStatusService implements ModelStatusReader, BackgroundService {
  readonly name = 'model_status';
  private state: ModelStatusState = new Map();
  private timer: NodeJS.Timeout | null = null;
  private subscription: Subscription | null = null;
  private probedOnce = false;

  constructor(
    private readonly catalog: CatalogService,
    private readonly store: EventStore,
    private readonly upstream: UpstreamClient,
    private readonly probe: ProbeConfig,
  ) {}

  /** Folds each model's own status stream, then follows live changes (e.g. from other replicas). */
  async start(): Promise<void> {
    const head = await this.store.headPosition();
    for (const model of this.catalog.all()) {
      for (const event of await this.store.readStream(`model-status-${model.id}`)) {
        this.state = evolveModelStatus(this.state, event.data as ModelStatusChangedV1);
      }
    }
    this.subscription = this.store.subscribeToAll({ after: head }, (event) => {
      if (event.type === 'ModelStatusChanged') this.state = evolveModelStatus(this.state, event.data as ModelStatusChangedV1);
    });
    void this.probeAll();
    this.timer = setInterval(() => void this.probeAll(), this.probe.interval_ms);
    this.timer.unref();
  }

  ready(): boolean {
    return this.probedOnce;
  }

  publicStatus(modelId: string): ModelStatus | undefined {
    return freshStatus(this.state, modelId, Date.now(), this.probe.interval_ms * this.probe.stale_after_intervals);
  }

  isCold(modelId: string): boolean {
    return this.publicStatus(modelId) === 'cold';
  }

  /** A readiness request is how a scaled-to-zero front learns it is wanted (docs/model-status.md). */
  nudge(model: CatalogModel): void {
    void this.upstream.probe(healthUrlOf(model), 2000);
  }

  async observe(model: CatalogModel, status: ModelStatus, reason: string): Promise<void> {
    const now = Date.now();
    const current = this.state.get(model.id);
    if (current?.status === status) {
      this.state = confirmModelStatus(this.state, model.id, status, now);
      return;
    }
    const event: ModelStatusChangedV1 = { model: model.id, status, previous: current?.status ?? null, observedAt: new Date(now).toISOString(), reason };
    this.state = evolveModelStatus(this.state, event);
    await this.store
      .append(`model-status-${model.id}`, [{ id: eventIdFor(randomUUID(), 'ModelStatusChanged'), type: 'ModelStatusChanged', data: event }])
      .catch(() => undefined);
  }

  private async probeAll(): Promise<void> {
    await Promise.all(
      this.catalog.all().map(async (model) => {
        const result = await this.upstream.probe(healthUrlOf(model), Math.min(this.probe.interval_ms, 5000));
        await this.observe(model, result.status === 200 ? 'warm' : 'cold', `health probe answered ${result.status || 'no connection'}`);
      }),
    );
    this.probedOnce = true;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.subscription?.stop();
  }
}
