// The event-store contract against a real PostgreSQL. jest.config.js runs this file only when
// GATEWAY_TEST_POSTGRES_URL is set (`npm test` starts a throwaway cluster: test/postgres/with-postgres.sh).
import { randomUUID } from 'node:crypto';
import { registerEventStoreContract } from '../../../test/support/event-store.contract';
import { createTestDatabase, withClient } from '../../../test/support/postgres-database';
import { billedRequestAppend, billedRequests } from '../../../test/kafka/support/billing-event-fixtures';
import { createEventStore } from '../create-event-store';
import { PostgresEventStore } from './postgres-event-store';

const url = process.env.GATEWAY_TEST_POSTGRES_URL;
if (!url) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set: there is no PostgreSQL to test against');

registerEventStoreContract('PostgreSQL', () => ({ open: () => PostgresEventStore.connect(url) }));

describe('PostgresEventStore specifics', () => {
  jest.setTimeout(60_000);
  const event = (data: unknown) => ({ id: randomUUID(), type: 'E', data });

  it('is what createEventStore opens for GATEWAY_POSTGRES_URL, with the pool size asked for', async () => {
    const store = await createEventStore({ dataDir: '/nonexistent', connectionString: null, postgres: { url, poolSize: 3 } });
    try {
      expect(store).toBeInstanceOf(PostgresEventStore);
      expect((store as PostgresEventStore).connectionPool.options.max).toBe(3);
    } finally {
      await store.close();
    }
  });

  it('creates its schema once when several replicas connect to a new database at the same moment', async () => {
    const database = await createTestDatabase();
    try {
      const stores = await Promise.all(Array.from({ length: 5 }, () => PostgresEventStore.connect(database.url)));
      const ids = await Promise.all(stores.map((store) => store.storeId()));
      await Promise.all(stores.map((store) => store.close()));
      expect(new Set(ids).size).toBe(1);
    } finally {
      await database.drop();
    }
  });

  it('keeps payloads as written: key order, NUL characters and long decimals (json, not jsonb)', async () => {
    const store = await PostgresEventStore.connect(url);
    try {
      const data = { z: 1, a: 'prompt with \u0000 inside', amount: '12345678901234567890.000001', nested: { y: [3, 2, 1], b: null } };
      const stream = `payload-${randomUUID()}`;
      await store.append(stream, [event(data)]);
      const [read] = await store.readStream(stream);
      expect(JSON.stringify(read.data)).toBe(JSON.stringify(data));
    } finally {
      await store.close();
    }
  });

  it('rejects an empty append, data that is not JSON and a checkpoint that is not a PostgreSQL position', async () => {
    const store = await PostgresEventStore.connect(url);
    try {
      await expect(store.append('s', [])).rejects.toThrow('at least one event');
      await expect(store.append('s', [{ id: randomUUID(), type: 'E', data: undefined }])).rejects.toThrow('JSON');
      await expect(store.readAll({ after: '42', maxCount: 1 })).rejects.toThrow('not a PostgreSQL event store position');
      await expect(store.readAll({ after: "1/1'; DROP TABLE gateway_events; --", maxCount: 1 })).rejects.toThrow('not a PostgreSQL event store position');
    } finally {
      await store.close();
    }
  });

  it('reports the rows and bytes a billed request costs (printed, not asserted)', async () => {
    const database = await createTestDatabase();
    const store = await PostgresEventStore.connect(database.url);
    try {
      for (const request of billedRequests(500, `size-${randomUUID()}`)) {
        const { streamId, events } = billedRequestAppend(request);
        await store.append(streamId, events);
      }
      const size = await withClient(database.url, (client) =>
        client.query<{ rows: string; bytes: string }>(`SELECT count(*)::text AS rows, pg_total_relation_size('gateway_events')::text AS bytes FROM gateway_events`),
      );
      const { rows, bytes } = size.rows[0];
      console.log(`PostgreSQL store: ${rows} events for 500 billed requests, ${(Number(bytes) / 500).toFixed(0)} bytes per request with indexes (${(Number(bytes) / Number(rows)).toFixed(0)} per event)`);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
