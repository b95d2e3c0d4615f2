import { registerEventStoreContract } from '../event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

if (connectionString) {
  // The suite's streams are named `contract_<run>-…`: they are read through the same server-side filter.
  registerEventStoreContract('EventStoreDB', () => ({ open: async () => EventStoreDbEventStore.connect(connectionString, { streamPrefixes: ['contract_'] }) }));
} else {
  const reason = 'EVENTSTORE_CONNECTION_STRING is not set, so there is no EventStoreDB/KurrentDB to test against (see deploy/eventstore/README.md)';
  console.warn(`EventStoreDB contract suite skipped: ${reason}`);
  describe('EventStore contract: EventStoreDB', () => {
    it.skip(`skipped: ${reason}`, () => undefined);
  });
}
