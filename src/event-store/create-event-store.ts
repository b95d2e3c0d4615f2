// Chooses the adapter: EventStoreDB/KurrentDB when a connection string is configured, else SQLite.
// The EventStoreDB client (gRPC, ~20 MiB resident) is loaded only when it is used.
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

export interface EventStoreSettings {
  dataDir: string;
  connectionString: string | null;
}

export async function createEventStore({ dataDir, connectionString }: EventStoreSettings): Promise<EventStore> {
  if (connectionString) {
    const { EventStoreDbEventStore } = await import('./eventstoredb/eventstoredb-event-store');
    return EventStoreDbEventStore.connect(connectionString);
  }
  return SqliteEventStore.open(dataDir);
}
