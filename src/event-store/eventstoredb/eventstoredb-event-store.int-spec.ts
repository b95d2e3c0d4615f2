import { registerEventStoreContract } from '../event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

if (connectionString) {
  registerEventStoreContract('EventStoreDB', () => ({ open: async () => EventStoreDbEventStore.connect(connectionString) }));
} else {
  const reason = 'EVENTSTORE_CONNECTION_STRING is not set, so there is no EventStoreDB/KurrentDB to test against (see deploy/eventstore/README.md)';
  console.warn(`EventStoreDB contract suite skipped: ${reason}`);
  describe('EventStore contract: EventStoreDB', () => {
    it.skip(`skipped: ${reason}`, () => undefined);
  });
}
