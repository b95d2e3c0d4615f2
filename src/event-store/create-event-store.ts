// Chooses the adapter: PostgreSQL when GATEWAY_POSTGRES_URL is set, EventStoreDB/KurrentDB when its
// connection string is, else SQLite. The PostgreSQL and EventStoreDB clients (the latter gRPC, ~20 MiB
// resident) are loaded only when used.
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { DEFAULT_CATCH_UP_TIMING } from './catch-up-subscription';
import type { PostgresEnv } from './postgres/postgres-env';
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';

export interface EventStoreSettings {
  dataDir: string;
  connectionString: string | null;
  /** GATEWAY_POSTGRES_URL and the pool size (postgres-env.ts). */
  postgres?: PostgresEnv | null;
  /** SQLite only: commit on the main thread while the append worker is idle (default on). */
  inlineCommits?: boolean;
  /** Context `event-store`: a lost PostgreSQL connection is logged here. */
  log?: GatewayLog;
}

export async function createEventStore({ dataDir, connectionString, postgres = null, inlineCommits = true, log = SILENT_LOG }: EventStoreSettings): Promise<EventStore> {
  // Two shared stores configured at once is a mistake; guessing would split the ledger.
  if (postgres && connectionString) throw new Error('set GATEWAY_POSTGRES_URL or EVENTSTORE_CONNECTION_STRING, not both');
  if (postgres) {
    const { PostgresEventStore, DEFAULT_POSTGRES_OPTIONS } = await import('./postgres/postgres-event-store');
    return PostgresEventStore.connect(postgres.url, {
      pool: { ...DEFAULT_POSTGRES_OPTIONS.pool, poolSize: postgres.poolSize },
      // Recovered from by the store itself (a new connection, polling meanwhile): worth a warning, not more.
      onConnectionError: (error) => log.warn({ cause: error.message }, 'PostgreSQL connection lost'),
    });
  }
  if (connectionString) {
    const { EventStoreDbEventStore } = await import('./eventstoredb/eventstoredb-event-store');
    return EventStoreDbEventStore.connect(connectionString);
  }
  return SqliteEventStore.open(dataDir, DEFAULT_CATCH_UP_TIMING, { inlineCommits });
}
