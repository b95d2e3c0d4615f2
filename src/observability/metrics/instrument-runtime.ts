// Connects the metrics to the runtime's parts: what they report as it happens (upstream calls, commits,
// refusals; billing takes the observer at construction) and what the gauges read when scraped.
import type { GatewayRuntime } from '../../core/gateway-runtime';
import type { EventStore } from '../../event-store/event-store.port';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import type { ParkingLot } from '../../projections/parking/apply-or-park';
import type { Projection } from '../../projections/projection-runner';
import type { GatewayMetrics } from './gateway-metrics';
import { RefusalCountingRateLimiter } from './refusal-counting-rate-limiter';
import { DeploymentMetrics } from './deployment-metrics';

export interface InstrumentedParts {
  /** The store adapter itself (the SQLite one reports its group commits). */
  baseStore: EventStore;
  parking: ParkingLot;
  projections: readonly Projection[];
}

/** Returns the runtime with its rate limiter counting refusals, and the metrics watching its state. */
export function instrumentRuntime(runtime: GatewayRuntime, metrics: GatewayMetrics, parts: InstrumentedParts): GatewayRuntime {
  const activity = metrics.activity;
  runtime.upstream.observeCalls(activity);
  if (parts.baseStore instanceof SqliteEventStore) parts.baseStore.observeCommitBatches((size, onMainThread) => activity.committed(size, onMainThread));
  const { catalog, modelStatus, modelGate, spool, relay } = runtime;
  metrics.watch({
    models: () => catalog.all(),
    statusOf: (modelId) => modelStatus.publicStatus(modelId),
    inFlightOf: (modelId) => modelGate.inFlightOf(modelId),
    spool: () => spool.counts(),
    parked: () => parts.parking.records.unacknowledged(),
    store: runtime.eventStore,
    projections: parts.projections,
    // The lag the relay counts in the background: a scrape reads no backlog.
    relayLag: relay ? async () => relay.lastStatus() : null,
  });
  runtime.upstream.router.listen(new DeploymentMetrics(metrics.registry, runtime.upstream.router, () => catalog.all()));
  runtime.rateLimiter = new RefusalCountingRateLimiter(runtime.rateLimiter, activity);
  return runtime;
}
