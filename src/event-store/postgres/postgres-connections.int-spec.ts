// What a replica sees when another one appends (LISTEN/NOTIFY, polling when that is lost), and what a
// lost connection costs: nothing a projection applied is lost or applied twice.
import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../event-store.port';
import { DEFAULT_CATCH_UP_TIMING } from '../catch-up-subscription';
import { PostgresEventStore, type PostgresStoreOptions } from './postgres-event-store';
import { DEFAULT_POOL_SETTINGS, checkOut } from './postgres-pool';
import { LISTENER_APPLICATION_NAME } from './append-listener';
import { createTestDatabase, withClient, type TestDatabase } from '../../../test/support/postgres-database';

const event = (n: number) => ({ id: randomUUID(), type: 'E', data: { n } });
/** Polling that would time the test out: what arrives in time was woken by NOTIFY. */
const NOTIFY_ONLY: Partial<PostgresStoreOptions> = { timing: { ...DEFAULT_CATCH_UP_TIMING, pollIntervalMs: 600_000, retryDelayMs: 50 } };

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

function terminate(url: string, applicationName: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`,
      [applicationName],
    );
    return rows.length;
  });
}

describe('PostgreSQL store connections', () => {
  jest.setTimeout(60_000);
  let database: TestDatabase;
  const open: PostgresEventStore[] = [];
  const connect = async (options: Partial<PostgresStoreOptions> = {}) => {
    const store = await PostgresEventStore.connect(database.url, options);
    open.push(store);
    return store;
  };

  beforeAll(async () => (database = await createTestDatabase()));
  afterEach(async () => Promise.all(open.splice(0).map((store) => store.close())));
  afterAll(async () => database.drop());

  it("wakes a replica's subscription on another replica's commit (NOTIFY), without waiting for a poll", async () => {
    const [writer, reader] = [await connect(), await connect(NOTIFY_ONLY)];
    const head = await reader.headPosition();
    const seen: RecordedEvent[] = [];
    await reader.subscribeToAll({ after: head }, (e) => void seen.push(e));
    const appended = event(1);
    await writer.append(`notify-${randomUUID()}`, [appended]);
    await until(() => seen.length === 1);
    expect(seen[0].id).toBe(appended.id);
  });

  it('re-opens a lost LISTEN connection, reporting the loss, and wakes on NOTIFY again', async () => {
    const errors: Error[] = [];
    const [writer, reader] = [await connect(), await connect({ ...NOTIFY_ONLY, onConnectionError: (error) => errors.push(error) })];
    const seen: RecordedEvent[] = [];
    await reader.subscribeToAll({ after: await reader.headPosition() }, (e) => void seen.push(e));
    expect(await terminate(database.url, LISTENER_APPLICATION_NAME)).toBeGreaterThan(0);
    await until(() => errors.length > 0);
    // Listening again shows as a new backend with the listener's name.
    await until(async () => (await withClient(database.url, (c) => c.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1`, [LISTENER_APPLICATION_NAME]))).rowCount! > 0);
    await writer.append(`relisten-${randomUUID()}`, [event(2)]);
    await until(() => seen.length === 1);
    expect((seen[0].data as { n: number }).n).toBe(2);
  });

  it('keeps delivering by polling while the LISTEN connection is gone', async () => {
    const [writer, reader] = [await connect(), await connect({ timing: { ...DEFAULT_CATCH_UP_TIMING, pollIntervalMs: 50 } })];
    const seen: RecordedEvent[] = [];
    await reader.subscribeToAll({ after: await reader.headPosition() }, (e) => void seen.push(e));
    await terminate(database.url, LISTENER_APPLICATION_NAME);
    await writer.append(`poll-${randomUUID()}`, [event(3)]);
    await until(() => seen.length === 1);
  });

  it('applies every event exactly once when all its connections are killed mid-subscription', async () => {
    const errors: unknown[] = [];
    const writer = await connect();
    const reader = await connect({ timing: { ...DEFAULT_CATCH_UP_TIMING, pageSize: 7, retryDelayMs: 50 } });
    const stream = `killed-${randomUUID()}`;
    const applied: number[] = [];
    await reader.subscribeToAll({ after: await reader.headPosition(), onError: (error) => errors.push(error) }, (e) => {
      if (e.streamId === stream) applied.push((e.data as { n: number }).n);
    });
    let killed = 0;
    for (let n = 0; n < 60; n++) {
      await writer.append(stream, [event(n)]);
      // Every tenth append, drop every connection of the database: pooled readers, writers and listeners.
      if (n % 10 === 9) killed += await terminate(database.url, 'inference-gateway') + (await terminate(database.url, LISTENER_APPLICATION_NAME));
    }
    await until(() => applied.length >= 60);
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log(`connections killed: ${killed}, read errors reported: ${errors.length}`);
    expect(killed).toBeGreaterThan(0);
    expect(applied).toEqual([...Array(60).keys()]);
  });

  it('sets the pool limits on its connections', async () => {
    const store = await connect({ pool: { ...DEFAULT_POOL_SETTINGS, statementTimeoutMs: 1234, idleInTransactionTimeoutMs: 4321 } });
    const { rows } = await store.connectionPool.query<{ statement: string; idle: string }>(
      `SELECT current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle`,
    );
    expect(rows[0]).toEqual({ statement: '1234ms', idle: '4321ms' });
    await expect(store.connectionPool.query('SELECT pg_sleep(3)')).rejects.toThrow('statement timeout');
  });

  // A fast shutdown ends every session with a FATAL that can arrive right behind an answer, while an
  // append holds the client between two queries: with no 'error' listener that ended the process.
  it('survives a session ended by the server while a client is checked out between queries, and drops that connection', async () => {
    const store = await connect();
    const pool = store.connectionPool;
    const { client, release } = await checkOut(pool);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    await withClient(database.url, (admin) => admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]));
    await ended;
    release();
    const { rows: after } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(after[0].pid).not.toBe(rows[0].pid);
  });
});
