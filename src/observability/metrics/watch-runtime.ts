// Connects the metrics to the runtime's parts before the runtime is assembled: what they report as it
// happens (upstream calls, commits; billing, the budget holds and the media gate take their observers
// at construction, the rate limiter is wrapped by RefusalCountingRateLimiter) and what the gauges read
// when scraped.
import type { CatalogService } from '../../catalog/catalog.service';
import type { EventStore } from '../../event-store/event-store.port';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import type { KafkaRelay } from '../../kafka/relay/kafka-relay';
import type { ModelStatusService } from '../../models/model-status/model-status.service';
import type { ParkingLot } from '../../projections/parking/apply-or-park';
import type { Projection } from '../../projections/projection';
import type { BillingSpool } from '../../billing/spool/billing-spool';
import type { ModelGate } from '../../models/model-gate/model-gate';
import type { UpstreamClient } from '../../upstream/upstream.client';
import type { GatewayMetrics } from './gateway-metrics';
import { DeploymentMetrics } from './deployment-metrics';

export interface WatchedParts {
  /** The store adapter itself (the SQLite one reports its group commits). */
  baseStore: EventStore;
  /** The store the gateway writes through (its write state is a gauge). */
  eventStore: EventStore;
  catalog: CatalogService;
  modelStatus: ModelStatusService;
  modelGate: ModelGate;
  upstream: UpstreamClient;
  spool: BillingSpool;
  relay: KafkaRelay | null;
  parking: ParkingLot;
  projections: readonly Projection[];
}

export function watchRuntimeParts(metrics: GatewayMetrics, parts: WatchedParts): void {
  const activity = metrics.activity;
  parts.upstream.observeCalls(activity);
  if (parts.baseStore instanceof SqliteEventStore) parts.baseStore.observeCommitBatches((size, onMainThread) => activity.committed(size, onMainThread));
  const { catalog, modelStatus, modelGate, spool, relay } = parts;
  metrics.watch({
    models: () => catalog.all(),
    statusOf: (modelId) => modelStatus.publicStatus(modelId),
    inFlightOf: (modelId) => modelGate.inFlightOf(modelId),
    spool: () => spool.counts(),
    parked: () => parts.parking.records.unacknowledged(),
    store: parts.eventStore,
    projections: parts.projections,
    // The lag the relay counts in the background: a scrape reads no backlog.
    relayLag: relay ? async () => relay.lastStatus() : null,
  });
  parts.upstream.router.listen(new DeploymentMetrics(metrics.registry, parts.upstream.router, () => catalog.all()));
}
