// The operator's configuration file (YAML or JSON, path from GATEWAY_CONFIG), after validation.
import { readInlineCommits } from '../event-store/sqlite/store-env';
import { readPostgresEnv, type PostgresEnv } from '../event-store/postgres/postgres-env';
import type { CatalogModel, ModelAlias, ServiceEndpoints } from '../catalog/catalog.types';
import type { ApiKeyRecord, ManagementKeyRecord, Organization, RateLimitConfig } from '../access/access.types';
import { readMetricsEnv, type MetricsEnv } from '../observability/metrics/metrics-env';
import { readMediaEnv, type MediaEnv } from '../media/admission/media-env';

export interface ProbeConfig {
  interval_ms: number;
  /** A status older than this many intervals counts as unknown and is omitted from /v1/models. */
  stale_after_intervals: number;
}

export interface GatewayConfig {
  price_book_version: string;
  models: CatalogModel[];
  aliases: ModelAlias[];
  organizations: Organization[];
  keys: ApiKeyRecord[];
  /** Keys of the management API only (docs/keys-and-budgets.md). */
  management_keys: ManagementKeyRecord[];
  /** Per management key and replica (docs/keys-and-budgets.md); default MANAGEMENT_RATE_LIMIT. */
  management_rate_limit: RateLimitConfig;
  services: ServiceEndpoints;
  probe: ProbeConfig;
}

/** Process environment the gateway reads (documented in README "Configuration"). */
export interface RuntimeEnv {
  port: number;
  host: string;
  dataDir: string;
  logLevel: string;
  configPath: string | null;
  eventStoreConnectionString: string | null;
  /** GATEWAY_POSTGRES_URL (+ GATEWAY_POSTGRES_POOL_SIZE): the PostgreSQL event store. */
  postgres: PostgresEnv | null;
  kafkaBrokers: string[];
  demoKey: string | null;
  /** GATEWAY_MANAGEMENT_KEY: a management key for the embedded default (never written anywhere). */
  managementKey: string | null;
  /** Secret for signing cost page cursors; random per process when unset. */
  cursorSecret: string | null;
  /** Bytes reserved for the billing spool (GATEWAY_SPOOL_BYTES, docs/metering.md "Spool"). */
  spoolBytes: number;
  /** GATEWAY_METRICS (on unless `off`) and GATEWAY_METRICS_TOKEN (docs/observability.md "Metrics"). */
  metrics: MetricsEnv;
  /** GATEWAY_STORE_INLINE_COMMITS (on unless `off`): the SQLite store commits on the main thread while idle. */
  storeInlineCommits: boolean;
  /** GATEWAY_MEDIA_*: media process slots, child limits, pixel cap (docs/security.md "Media processing"). */
  media: MediaEnv;
}

export function readRuntimeEnv(env: NodeJS.ProcessEnv = process.env): RuntimeEnv {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: env.GATEWAY_DATA_DIR ?? './data',
    logLevel: env.LOG_LEVEL ?? 'info',
    configPath: env.GATEWAY_CONFIG ?? null,
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING || null,
    postgres: readPostgresEnv(env),
    kafkaBrokers: (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean),
    demoKey: env.GATEWAY_DEMO_KEY ?? null,
    managementKey: env.GATEWAY_MANAGEMENT_KEY || null,
    cursorSecret: env.GATEWAY_CURSOR_SECRET ?? null,
    spoolBytes: spoolBytesFrom(env.GATEWAY_SPOOL_BYTES),
    metrics: readMetricsEnv(env),
    storeInlineCommits: readInlineCommits(env),
    media: readMediaEnv(env),
  };
}

export const DEFAULT_SPOOL_BYTES = 64 * 1024 * 1024;
/** Room for at least a few hundred records; smaller would fill during any real outage. */
export const MIN_SPOOL_BYTES = 1024 * 1024;

/** A whole number of bytes, at least MIN_SPOOL_BYTES; anything else stops the start-up. */
export function spoolBytesFrom(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_SPOOL_BYTES;
  const bytes = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < MIN_SPOOL_BYTES) {
    throw new Error(`GATEWAY_SPOOL_BYTES must be a whole number of bytes, at least ${MIN_SPOOL_BYTES}; got '${value}'`);
  }
  return bytes;
}
