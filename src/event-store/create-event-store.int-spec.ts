import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore } from './create-event-store';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';

describe('createEventStore', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'create-event-store-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('opens <dataDir>/events.sqlite without a connection string', async () => {
    const store = await createEventStore({ dataDir, connectionString: null });
    await store.close();
    expect(store).toBeInstanceOf(SqliteEventStore);
    expect(existsSync(join(dataDir, 'events.sqlite'))).toBe(true);
  });

  it('uses EventStoreDB when a connection string is set (the client connects lazily)', async () => {
    const store = await createEventStore({ dataDir, connectionString: 'esdb://127.0.0.1:1?tls=false' });
    await store.close();
    expect(store).toBeInstanceOf(EventStoreDbEventStore);
  });

  it('refuses PostgreSQL and EventStoreDB configured together', async () => {
    const postgres = { url: 'postgres://gw@127.0.0.1:1/ledger', poolSize: 2 };
    await expect(createEventStore({ dataDir, connectionString: 'esdb://127.0.0.1:1?tls=false', postgres })).rejects.toThrow('not both');
  });
});
