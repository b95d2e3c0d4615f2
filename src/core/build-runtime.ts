// Wires the runtime from configuration and environment: event store (SQLite by default, EventStoreDB
// with a connection string), access, rate limits, billing, upstreams, model status.
import type { GatewayConfig, RuntimeEnv } from '../config/gateway-config';
import { newRequestId } from '../event-store/event-ids';
import { CatalogService } from '../catalog/catalog.service';
import { EventStore } from '../event-store/event-store.port';
import { createEventStore } from '../event-store/create-event-store';
import { DEFAULT_PROBE_INTERVAL_MS, WriteTrackingEventStore } from '../event-store/write-tracking-event-store';
import { BillingSpool } from '../billing/spool/billing-spool';
import { AccessStore, ConfigAccessStore } from '../access/access.store';
import { EventSourcedRateLimiter } from '../rate-limits/event-sourced-rate-limiter';
import { RateLimitProjection } from '../rate-limits/rate-limit.projection';
import { openReadModelDb } from '../projections/read-model-db';
import { bindReadModelsToStore } from '../projections/read-model-store-binding';
import { ReadModelCheckpointer } from '../projections/read-model-checkpointer';
import { ProjectionHub } from '../projections/projection-hub';
import { ParkingLot } from '../projections/parking/apply-or-park';
import { ParkedEvents } from '../projections/parking/parked-events';
import { EventContractError } from '../projections/parking/event-contract-error';
import { BillingService } from '../billing/billing.service';
import { BudgetHolds } from '../budgets/budget-holds';
import { BudgetLedgerStore } from '../budgets/budget-ledger-store';
import { UpstreamClient } from '../upstream/upstream.client';
import { ModelGate } from '../models/model-gate/model-gate';
import { MediaGate } from '../media/admission/media-gate';
import { organizationShareFrom } from '../models/model-gate/fair-share';
import { ModelStatusService } from '../models/model-status/model-status.service';
import { upstreamStatusListener } from '../models/model-status/upstream-status-listener';
import type { BackgroundService } from '../common/background-service';
import type { GatewayRuntime } from './gateway-runtime';
import type { KafkaRelay } from '../kafka/relay/kafka-relay';
import { isRelayLeaseSource } from '../kafka/relay/relay-lease';
import { CostReadModels } from '../costs/read-model/cost-read-models';
import { randomBytes } from 'node:crypto';
import { GatewayMetrics } from '../observability/metrics/gateway-metrics';
import { watchRuntimeParts } from '../observability/metrics/watch-runtime';
import { RefusalCountingRateLimiter } from '../observability/metrics/refusal-counting-rate-limiter';
import { initTracing } from '../observability/tracing/tracing';
import type { GatewayTracing } from '../observability/tracing/gateway-tracing';
import type { RateLimiter } from '../rate-limits/rate-limiter.port';
import { createGatewayLogger } from '../observability/logging/gateway-logger';
import type { Logger } from 'pino';
import type { GatewayLog } from '../common/gateway-log';
import { KeyRegistryProjection } from '../keys/key-registry.projection';
import { RuntimeAccessStore } from '../keys/runtime-access-store';
import { StartupGate } from './startup-gate';
import { recordAttemptsOfFailedRequests } from '../routing/failed-request-attempts';

export interface RuntimeOverrides {
  eventStore?: EventStore;
  accessStore?: AccessStore;
  /**
   * Return before the projections have caught up with the store (main.ts): the HTTP server can then
   * answer /healthz while /readyz and the /v1 routes answer 503 until `runtime.startup` settles.
   */
  catchUpInBackground?: boolean;
  /** How long a model health probe may take (ModelStatusService); tests raise it so a slow answer is not "cold". */
  probeTimeoutMs?: number;
  /** The gateway's logger (main.ts's, or a test's writing to its own stream); else one at LOG_LEVEL on stdout. */
  log?: Logger;
}

export async function buildRuntime(config: GatewayConfig, env: RuntimeEnv, overrides: RuntimeOverrides = {}): Promise<GatewayRuntime> {
  const log = overrides.log ?? createGatewayLogger(env.logLevel);
  const projectionLog = log.child({ context: 'projections' });
  const storeLog = log.child({ context: 'event-store' });
  const catalog = new CatalogService(config);
  const metrics = env.metrics.enabled ? new GatewayMetrics(config.organizations.map((organization) => organization.id)) : null;
  // OpenTelemetry is loaded only when OTEL_* turns tracing on; the parts below take its spans at construction.
  const tracing = await initTracing(log.child({ context: 'opentelemetry' }));
  const baseStore = overrides.eventStore ?? (await createEventStore({ dataDir: env.dataDir, connectionString: env.eventStoreConnectionString, postgres: env.postgres, inlineCommits: env.storeInlineCommits, log: storeLog }));
  const eventStore = new WriteTrackingEventStore(
    baseStore,
    DEFAULT_PROBE_INTERVAL_MS,
    (failing, cause) => (failing ? storeLog.error({ cause: String(cause) }, 'event store writes failing') : storeLog.warn('event store writes again')),
  );
  const spool = await BillingSpool.open(env.dataDir, env.spoolBytes, eventStore, log.child({ context: 'billing-spool' }));
  const upstream = new UpstreamClient(undefined, tracing?.upstreamCalls ?? null);
  for (const listener of tracing?.attempts ?? []) upstream.router.listen(listener);
  const readModels = openReadModelDb(env.dataDir);
  await bindReadModelsToStore(readModels, eventStore, (reason) => projectionLog.warn({ reason }, 'read models rebuilt from the event store'));
  const checkpointer = await ReadModelCheckpointer.start(readModels, (error) =>
    projectionLog.warn({ err: error }, 'read-model checkpoints are back on the main thread'),
  );
  const modelStatus = new ModelStatusService(catalog, eventStore, upstream, config.probe, readModels, overrides.probeTimeoutMs);
  upstream.onColdStart(upstreamStatusListener(modelStatus));
  const parking = new ParkingLot(new ParkedEvents(readModels), projectionLog);
  const rateLimitLog = log.child({ context: 'rate-limits' });
  const rateLimitProjection = new RateLimitProjection(readModels, {
    replicaId: newRequestId(),
    onMalformed: (event, reason) => parking.park('rate-limit', event, new EventContractError(reason)),
    log: rateLimitLog,
  });
  const rateLimiter = new EventSourcedRateLimiter(eventStore, rateLimitProjection, undefined, rateLimitLog);
  rateLimiter.start();
  const costs = new CostReadModels(eventStore, readModels, parking);
  const budgets = new BudgetHolds(eventStore, {
    onRefused: metrics ? (organizationId) => metrics.activity.refusal(organizationId, 'budget_exceeded') : undefined,
    snapshots: new BudgetLedgerStore(readModels, projectionLog),
    log: log.child({ context: 'budgets' }),
  });
  budgets.start();
  const keyRegistry = new KeyRegistryProjection(readModels, projectionLog);
  keyRegistry.start();
  const projections = new ProjectionHub(
    eventStore,
    [rateLimitProjection, modelStatus.consumer, costs.projection, budgets, keyRegistry],
    (name, error) => projectionLog.error({ projection: name, err: error }, `projection ${name} failed, retrying`),
    { parking },
  );
  const caughtUp = projections.start().then(() => {
    // Stopped while catching up (shutdown during start-up): nothing more to start.
    if (!projections.status().startedUp) return;
    costs.markCaughtUp();
    modelStatus.start();
  });
  const startup = new StartupGate(caughtUp);
  if (!overrides.catchUpInBackground) await caughtUp;
  // kafkajs (~12 MiB resident) is loaded only when brokers are configured.
  const relayEnv = { ...process.env, KAFKA_BROKERS: env.kafkaBrokers.join(','), GATEWAY_DATA_DIR: env.dataDir };
  const relayLease = isRelayLeaseSource(baseStore) ? baseStore.createRelayLease() : undefined;
  const relay = env.kafkaBrokers.length === 0 ? null : (await import('../kafka/relay/kafka-relay.factory')).createKafkaRelay(eventStore, relayEnv, log.child({ context: 'kafka-relay' }), relayLease);
  await relay?.start();
  const media = new MediaGate(env.media, metrics?.media ?? null, tracing?.media ?? null);
  metrics?.media.watchSlots(media.slots);
  const modelGate = new ModelGate(modelStatus, organizationShareFrom(process.env));
  const projected = [rateLimitProjection, modelStatus.consumer, costs.projection, budgets, keyRegistry];
  if (metrics) watchRuntimeParts(metrics, { baseStore, eventStore, catalog, modelStatus, modelGate, upstream, spool, relay, parking, projections: projected });
  const runtime: GatewayRuntime = {
    config,
    env,
    log,
    catalog,
    eventStore,
    accessStore: new RuntimeAccessStore(overrides.accessStore ?? new ConfigAccessStore(config), keyRegistry.registry),
    keyRegistry,
    rateLimiter: decoratedRateLimiter(rateLimiter, metrics, tracing),
    billing: recordAttemptsOfFailedRequests(new BillingService(eventStore, config.price_book_version, undefined, spool, metrics?.activity ?? null, budgets, tracing?.charges ?? null, log.child({ context: 'billing' })), upstream.router, eventStore),
    budgets,
    spool,
    upstream,
    modelGate,
    modelStatus,
    media,
    relay,
    costs,
    readModels,
    cursorSecret: env.cursorSecret ?? randomBytes(32).toString('hex'),
    // Stopped in reverse: the writers first (the store's write probe, the spool's drain, the rate
    // limiter's slice releases, the prober), then the projections drain to the store's head, then the
    // snapshots and checkpoints of what they folded. So a clean stop leaves every read model at the head.
    services: [checkpointerService(checkpointer), keyRegistryService(keyRegistry), budgetLedgerService(budgets), hubService(projections, projectionLog), costs, ...(relay ? [relayService(relay)] : []), modelStatus, rateLimiter, spool, eventStore],
    metrics,
    tracing,
    startup,
  };
  return runtime;
}

/** The limiter requests see: refusals counted (metrics on), inside the admission span (tracing on). */
function decoratedRateLimiter(limiter: RateLimiter, metrics: GatewayMetrics | null, tracing: GatewayTracing | null): RateLimiter {
  const counted = metrics ? new RefusalCountingRateLimiter(limiter, metrics.activity) : limiter;
  return tracing ? tracing.tracedRateLimiter(counted) : counted;
}

/** How long a clean stop waits for the projections to apply what the stopping writers appended. */
export const STOP_DRAIN_MS = 5_000;

/**
 * Not ready while a projection is stuck or has parked events nobody acknowledged (docs/projections.md).
 * Stopped after every writer: it first drains to the store's head (bounded, logged when not reached).
 */
function hubService(hub: ProjectionHub, log: GatewayLog): BackgroundService {
  const stop = async () => {
    if (!(await hub.drainToHead(STOP_DRAIN_MS)) && hub.status().startedUp) {
      log.warn({ drainMs: STOP_DRAIN_MS, status: hub.status() }, 'projections did not reach the store head before stopping');
    }
    await hub.stop();
  };
  return { name: 'projections', ready: () => hub.ready(), details: () => ({ ...hub.status() }), stop };
}

/** Listed first, so it stops after every projection has written its last page. */
function checkpointerService(checkpointer: ReadModelCheckpointer): BackgroundService {
  return { name: 'read_model_checkpoints', ready: () => true, stop: () => checkpointer.stop() };
}

/** Stopped after the hub (services stop in reverse), so its last snapshot holds every folded change. */
function keyRegistryService(projection: KeyRegistryProjection): BackgroundService {
  return { name: 'key_registry', ready: () => true, stop: async () => projection.stop() };
}

/** Stopped after the hub, so its last snapshot holds every folded event. */
function budgetLedgerService(budgets: BudgetHolds): BackgroundService {
  return { name: 'budget_ledger', ready: () => true, stop: async () => budgets.stop() };
}

/** The relay never gates readiness: while Kafka is down the gateway keeps serving and recording. */
function relayService(relay: KafkaRelay): BackgroundService {
  return { name: 'kafka_relay', ready: () => true, stop: () => relay.stop() };
}
