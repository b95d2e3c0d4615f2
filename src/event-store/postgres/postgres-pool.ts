// The connection pool and its limits. The connection string is libpq's (postgres://user@host:port/db or
// key=value); what it leaves out, pg takes from the PG* environment variables (PGHOST, PGPASSWORD, …).
import { Pool, type PoolClient, type PoolConfig } from 'pg';

export interface PostgresPoolSettings {
  /** Connections per gateway process (GATEWAY_POSTGRES_POOL_SIZE). Appends hold one for a few round trips. */
  poolSize: number;
  /** Server-side limit on one statement; a stuck query fails instead of holding a connection. */
  statementTimeoutMs: number;
  /** A transaction left open this long is ended by the server, so it cannot hold back readers' xmin. */
  idleInTransactionTimeoutMs: number;
  /** Waiting for a free connection or for the server to answer a connect. */
  connectTimeoutMs: number;
}

export const DEFAULT_POOL_SETTINGS: PostgresPoolSettings = {
  poolSize: 10,
  statementTimeoutMs: 10_000,
  idleInTransactionTimeoutMs: 10_000,
  connectTimeoutMs: 5_000,
};

export function poolConfig(connectionString: string, settings: PostgresPoolSettings): PoolConfig {
  return {
    connectionString,
    max: settings.poolSize,
    statement_timeout: settings.statementTimeoutMs,
    idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    // The client gives up a little after the server would have, should the server not answer at all.
    query_timeout: settings.statementTimeoutMs + 2_000,
    application_name: 'inference-gateway',
  };
}

export function createPool(connectionString: string, settings: PostgresPoolSettings, onError: (error: Error) => void): Pool {
  const pool = new Pool(poolConfig(connectionString, settings));
  // An idle connection the server closed (restart, failover, pg_terminate_backend) emits here; unhandled
  // it would end the process. The pool drops it and the next query opens another.
  pool.on('error', onError);
  return pool;
}

/** GATEWAY_POSTGRES_POOL_SIZE: a whole number from 2 (one append and one read at a time) to 1000. */
export function poolSizeFrom(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_POOL_SETTINGS.poolSize;
  const size = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(size) || size < 2 || size > 1000) {
    throw new Error(`GATEWAY_POSTGRES_POOL_SIZE must be a whole number from 2 to 1000; got '${value}'`);
  }
  return size;
}

export interface CheckedOutClient {
  client: PoolClient;
  /** Back to the pool; with an error (or after the connection was lost) the pool drops the connection. */
  release(error?: Error): void;
}

/**
 * pg-pool takes its 'error' listener off a client it hands out. A server that ends the session between
 * two of our queries (a fast shutdown's "terminating connection due to administrator command" arrives
 * right behind the previous answer) then makes the client emit 'error' with no listener: an uncaught
 * exception that ends the process (found by test/postgres/replicas-on-hosts.e2e-spec.ts). This keeps a
 * listener for as long as the client is out, and a lost client leaves the pool on release.
 */
export async function checkOut(pool: Pool): Promise<CheckedOutClient> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const hold = (error: Error) => void (lost ??= error);
  client.on('error', hold);
  return {
    client,
    release: (error) => {
      client.off('error', hold);
      client.release(error ?? lost);
    },
  };
}
