// The event-store contract against a real PostgreSQL. jest.config.js runs this file only when
// GATEWAY_TEST_POSTGRES_URL is set (`npm test` starts a throwaway cluster: test/postgres/with-postgres.sh).
import { registerEventStoreContract } from '../../../test/support/event-store.contract';
import { PostgresEventStore } from './postgres-event-store';

const url = process.env.GATEWAY_TEST_POSTGRES_URL;
if (!url) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set: there is no PostgreSQL to test against');

registerEventStoreContract('PostgreSQL', () => ({ open: () => PostgresEventStore.connect(url) }));
