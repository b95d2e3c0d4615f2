// Gauges (and counters kept elsewhere) read from the gateway's state when Prometheus scrapes, never on
// the request path: model status and in-flight calls, the billing spool, parked events, how far each
// projection and the Kafka relay are behind the store's head.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { EventStore } from '../../event-store/event-store.port';
import type { SpoolCounts } from '../../billing/spool/billing-spool';
import type { RelayStatus } from '../../kafka/relay/kafka-relay';
import { countEventsAfter, LAG_COUNT_CAP } from '../../kafka/relay/relay-lag';

export interface StateSources {
  models(): CatalogModel[];
  /** undefined: no fresh observation (docs/model-status.md). */
  statusOf(modelId: string): 'warm' | 'cold' | undefined;
  inFlightOf(modelId: string): number;
  spool(): SpoolCounts;
  /** Unacknowledged parked events per projection, every replica's (read-models.sqlite). */
  parked(): Record<string, number>;
  store: EventStore;
  projections: readonly { readonly name: string; checkpoint(): string | null }[];
  relayLag: ((cap: number) => Promise<RelayStatus>) | null;
}

const MODEL_STATES = ['warm', 'cold', 'unknown'] as const;

export function registerStateMetrics(registry: Registry, sources: StateSources): void {
  const registers = [registry];
  new Gauge({
    name: 'gateway_model_status', help: 'Served status of each catalog model: 1 on its current state (warm, cold, or unknown when no fresh observation).',
    labelNames: ['model', 'state'], registers,
    collect() {
      this.reset();
      for (const model of sources.models()) {
        const current = sources.statusOf(model.id) ?? 'unknown';
        for (const state of MODEL_STATES) this.labels(model.id, state).set(state === current ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'gateway_model_in_flight', help: 'Upstream work in progress per model (what its concurrency cap counts).',
    labelNames: ['model'], registers,
    collect() {
      for (const model of sources.models()) this.labels(model.id).set(sources.inFlightOf(model.id));
    },
  });
  new Gauge({
    name: 'gateway_model_concurrency_cap', help: "The catalog's max_concurrency per model (models without a cap are absent).",
    labelNames: ['model'], registers,
    collect() {
      this.reset();
      for (const model of sources.models()) if (model.upstream.max_concurrency) this.labels(model.id).set(model.upstream.max_concurrency);
    },
  });
  registerSpoolMetrics(registry, sources);
  new Gauge({
    name: 'gateway_projection_parked_events', help: 'Parked events nobody acknowledged, per projection (shared read model: every replica reports the same).',
    labelNames: ['projection'], registers,
    collect() {
      this.reset();
      for (const [projection, count] of Object.entries(sources.parked())) this.labels(projection).set(count);
    },
  });
  new Gauge({
    name: 'gateway_projection_events_behind', help: `Store events after each projection's checkpoint (counted up to ${LAG_COUNT_CAP}).`,
    labelNames: ['projection'], registers,
    async collect() {
      const counts = await Promise.all(sources.projections.map((p) => countEventsAfter(sources.store, p.checkpoint(), LAG_COUNT_CAP)));
      sources.projections.forEach((projection, index) => this.labels(projection.name).set(counts[index].count));
    },
  });
  if (sources.relayLag) registerRelayMetrics(registry, sources.relayLag);
}

function registerSpoolMetrics(registry: Registry, sources: StateSources): void {
  const registers = [registry];
  new Counter({
    name: 'gateway_billing_spooled_usages_total', help: "Usage records this process spooled because the store could not take a delivered stream's billing events.",
    registers,
    collect() {
      setCounter(this, sources.spool().spooled);
    },
  });
  new Counter({
    name: 'gateway_billing_spool_drained_total', help: 'Spooled usage records this process appended to the store.',
    registers,
    collect() {
      setCounter(this, sources.spool().drained);
    },
  });
  new Gauge({
    name: 'gateway_billing_spool_pending', help: 'Usage records waiting in the spool file for the store.',
    registers,
    collect() {
      this.set(sources.spool().pending);
    },
  });
}

function registerRelayMetrics(registry: Registry, relayLag: (cap: number) => Promise<RelayStatus>): void {
  const registers = [registry];
  let last: Promise<RelayStatus> | null = null;
  // One lag read per scrape serves the four metrics below.
  const status = (): Promise<RelayStatus> => (last ??= relayLag(LAG_COUNT_CAP).finally(() => setImmediate(() => (last = null))));
  new Gauge({
    name: 'gateway_kafka_relay_events_behind', help: `Store events after the Kafka relay's checkpoint (counted up to ${LAG_COUNT_CAP}).`,
    registers,
    async collect() {
      this.set((await status()).eventsBehind);
    },
  });
  new Counter({
    name: 'gateway_kafka_relay_failures_total', help: 'Failed relay rounds (produce errors, store reads, checkpoint writes) since start.',
    registers,
    async collect() {
      setCounter(this, (await status()).totalFailures);
    },
  });
  new Counter({
    name: 'gateway_kafka_relay_published_messages_total', help: 'Messages the broker acknowledged since start.',
    registers,
    async collect() {
      setCounter(this, (await status()).publishedMessages);
    },
  });
  new Gauge({
    name: 'gateway_kafka_relay_parked_events', help: 'Events the relay parked because they cannot become a message.',
    registers,
    async collect() {
      this.set((await status()).parkedEvents);
    },
  });
}

/** A counter whose count is kept elsewhere (and only grows): shows that count. */
function setCounter(counter: Counter, value: number): void {
  counter.reset();
  counter.inc(value);
}
