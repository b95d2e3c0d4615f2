// GATEWAY_POSTGRES_URL selects the PostgreSQL event store (README "Configuration"); the pool size is
// GATEWAY_POSTGRES_POOL_SIZE. Read here so the runtime's env reader only forwards it.
import { poolSizeFrom } from './postgres-pool';

export interface PostgresEnv {
  /** A libpq connection string; PG* variables fill in what it leaves out (pg does). */
  url: string;
  poolSize: number;
}

export function readPostgresEnv(env: NodeJS.ProcessEnv): PostgresEnv | null {
  const url = env.GATEWAY_POSTGRES_URL?.trim();
  if (!url) return null;
  return { url, poolSize: poolSizeFrom(env.GATEWAY_POSTGRES_POOL_SIZE) };
}
