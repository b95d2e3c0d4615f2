// The event-store contract against a real EventStoreDB/KurrentDB. jest.config.js runs this file only when
// EVENTSTORE_CONNECTION_STRING is set, and `npm test` says when it is not, so a run without a server
// reports no skipped test (see deploy/eventstore/README.md for starting one).
import { registerEventStoreContract } from '../../../test/support/event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
if (!connectionString) throw new Error('EVENTSTORE_CONNECTION_STRING is not set: there is no EventStoreDB/KurrentDB to test against');

// The suite's streams are named `contract_<run>-…`: they are read through the same server-side filter.
registerEventStoreContract('EventStoreDB', () => ({ open: async () => EventStoreDbEventStore.connect(connectionString, { streamPrefixes: ['contract_'] }) }));
