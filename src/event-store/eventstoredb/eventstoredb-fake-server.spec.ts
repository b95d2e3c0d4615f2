// The contract suite against the adapter over a fake server that applies EventStoreDB's own append
// rules (test/support/fake-esdb-client.ts): the EventStoreDB path runs here even without a server.
import { registerEventStoreContract } from '../../../test/support/event-store.contract';
import { FakeEsdbClient } from '../../../test/support/fake-esdb-client';
import { DEFAULT_ESDB_STORE_OPTIONS, EventStoreDbEventStore } from './eventstoredb-event-store';

const server = new FakeEsdbClient();

registerEventStoreContract('EventStoreDB adapter over a fake server', () => ({
  open: async () => new EventStoreDbEventStore(server, { ...DEFAULT_ESDB_STORE_OPTIONS, streamPrefixes: ['contract_'] }),
}));
