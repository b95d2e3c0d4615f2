// Chooses the adapter: EventStoreDB/KurrentDB when a connection string is configured, else SQLite.
// The EventStoreDB client (gRPC, ~20 MiB resident) is loaded only when it is used.
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { DEFAULT_CATCH_UP_TIMING } from './catch-up-subscription';

export interface EventStoreSettings {
  dataDir: string;
  connectionString: string | null;
  /** SQLite only: commit on the main thread while the append worker is idle (default on). */
  inlineCommits?: boolean;
}

export async function createEventStore({ dataDir, connectionString, inlineCommits = true }: EventStoreSettings): Promise<EventStore> {
  if (connectionString) {
    const { EventStoreDbEventStore } = await import('./eventstoredb/eventstoredb-event-store');
    return EventStoreDbEventStore.connect(connectionString);
  }
  return SqliteEventStore.open(dataDir, DEFAULT_CATCH_UP_TIMING, { inlineCommits });
}
