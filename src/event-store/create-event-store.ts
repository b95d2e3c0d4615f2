// Chooses the adapter: EventStoreDB/KurrentDB when a connection string is configured, else SQLite.
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';

export interface EventStoreSettings {
  dataDir: string;
  connectionString: string | null;
}

export async function createEventStore({ dataDir, connectionString }: EventStoreSettings): Promise<EventStore> {
  if (connectionString) return EventStoreDbEventStore.connect(connectionString);
  return SqliteEventStore.open(dataDir);
}
