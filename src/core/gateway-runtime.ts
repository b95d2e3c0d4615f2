// Everything a request needs, built once at start-up (outside Nest so tests can swap any part,
// e.g. a failing event store or key store, to prove the gateway fails closed).
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { GatewayConfig, RuntimeEnv } from '../config/gateway-config';
import type { CatalogService } from '../catalog/catalog.service';
import type { EventStore } from '../event-store/event-store.port';
import type { AccessStore } from '../access/access.store';
import type { RateLimiter } from '../rate-limits/rate-limiter.port';
import type { BillingService } from '../billing/billing.service';
import type { BudgetHolds } from '../budgets/budget-holds';
import type { BillingSpool } from '../billing/spool/billing-spool';
import type { UpstreamClient } from '../upstream/upstream.client';
import type { ModelGate } from '../models/model-gate/model-gate';
import type { MediaGate } from '../media/admission/media-gate';
import type { ModelStatusService } from '../models/model-status/model-status.service';
import type { KafkaRelay } from '../kafka/relay/kafka-relay';
import type { CostReadModels } from '../costs/read-model/cost-read-models';
import type { GatewayMetrics } from '../observability/metrics/gateway-metrics';
import type { KeyRegistryProjection } from '../keys/key-registry.projection';
import type { StartupGate } from './startup-gate';
import type { GatewayTracing } from '../observability/tracing/gateway-tracing';
import type { BackgroundService } from '../common/background-service';

export interface GatewayRuntime {
  config: GatewayConfig;
  env: RuntimeEnv;
  /** The gateway's one logger: Fastify's, Nest's through the bridge, and every part's (as a GatewayLog child). */
  log: Logger;
  catalog: CatalogService;
  /** Wrapped so every writer shares one view of whether appends fail (event_store_writes). */
  eventStore: EventStore;
  accessStore: AccessStore;
  /** Runtime keys and organization budgets folded from the key events (docs/keys-and-budgets.md). */
  keyRegistry: KeyRegistryProjection;
  rateLimiter: RateLimiter;
  billing: BillingService;
  /** Spend-limit holds and the budget ledger's fold (also the SpendReader of the key views). */
  budgets: BudgetHolds;
  /** Usage delivered while the store could not write, waiting to be appended (docs/metering.md "Spool"). */
  spool: BillingSpool;
  upstream: UpstreamClient;
  modelGate: ModelGate;
  modelStatus: ModelStatusService;
  /** Media process slots, child limits and the pixel cap (docs/security.md "Media processing"). */
  media: MediaGate;
  /** Publishes billing events to Kafka when KAFKA_BROKERS is set. */
  relay: KafkaRelay | null;
  costs: CostReadModels;
  /** read-models.sqlite: cost buckets, rate-limit snapshot, projection checkpoints. */
  readModels: Database.Database;
  /** Signs cost-page cursors (GATEWAY_CURSOR_SECRET; random per process when unset). */
  cursorSecret: string;
  /** Prometheus metrics (GET /metrics); null when GATEWAY_METRICS=off. */
  metrics: GatewayMetrics | null;
  /** The tracer its parts were built with when OTEL_* turned tracing on (absent or null: off). */
  tracing?: GatewayTracing | null;
  /** Settles once the projections the request path needs have caught up with the store (absent in hand-built runtimes: caught up). */
  startup?: StartupGate;
  /** Background parts (projections, prober, relay) stopped on shutdown, in reverse order. */
  services: BackgroundService[];
}
