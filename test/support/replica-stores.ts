// Where the replicas of a multi-replica test keep their events: one SQLite file in one shared data
// directory (replicas on one machine), or one PostgreSQL database with a data directory per replica for
// what stays local (read models, billing spool). The scenarios under test/scale, test/budgets and
// test/keys run on both; the PostgreSQL files (*-postgres.e2e-spec.ts) only with GATEWAY_TEST_POSTGRES_URL.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '../../src/event-store/event-store.port';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { createTestDatabase } from './postgres-database';

export interface ReplicaStore {
  /** Holds the test's config file and every replica's data directory. */
  rootDir: string;
  /** Environment of replica `index` (its data directory and the store's address). */
  replicaEnv(index: number): Record<string, string>;
  /** Data directory of replica `index` (its read models). */
  dataDir(index: number): string;
  /** The shared store, for assertions on what the replicas recorded. */
  open(): Promise<EventStore>;
  cleanup(): Promise<void>;
}

export interface ReplicaStoreKind {
  /** For test names: `one SQLite file`, `one PostgreSQL database`. */
  label: string;
  create(tempDirPrefix: string): Promise<ReplicaStore>;
}

export const sqliteReplicaStore: ReplicaStoreKind = { label: 'one SQLite file', create: createSqliteReplicaStore };
export const postgresReplicaStore: ReplicaStoreKind = { label: 'one PostgreSQL database', create: createPostgresReplicaStore };

async function createSqliteReplicaStore(prefix: string): Promise<ReplicaStore> {
  const rootDir = mkdtempSync(join(tmpdir(), prefix));
  return {
    rootDir,
    replicaEnv: () => ({ GATEWAY_DATA_DIR: rootDir, GATEWAY_POSTGRES_URL: '', EVENTSTORE_CONNECTION_STRING: '' }),
    dataDir: () => rootDir,
    open: () => SqliteEventStore.open(rootDir),
    cleanup: async () => rmSync(rootDir, { recursive: true, force: true }),
  };
}

async function createPostgresReplicaStore(prefix: string): Promise<ReplicaStore> {
  const rootDir = mkdtempSync(join(tmpdir(), prefix));
  const database = await createTestDatabase();
  const dataDir = (index: number) => join(rootDir, `replica-${index}`);
  return {
    rootDir,
    replicaEnv: (index) => {
      mkdirSync(dataDir(index), { recursive: true });
      return { GATEWAY_DATA_DIR: dataDir(index), GATEWAY_POSTGRES_URL: database.url, EVENTSTORE_CONNECTION_STRING: '' };
    },
    dataDir,
    open: () => PostgresEventStore.connect(database.url),
    cleanup: async () => {
      await database.drop();
      rmSync(rootDir, { recursive: true, force: true });
    },
  };
}
