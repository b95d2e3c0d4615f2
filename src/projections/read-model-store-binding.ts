// Read models belong to one event store. read-models.sqlite records the id of the store it was built
// from (EventStore.storeId); at start-up a different store, or a checkpoint past the store's head (the
// store was restored from an older backup and would reuse positions the models already hold), makes
// the read models invalid: every table is dropped and the projections rebuild from the first event,
// instead of silently skipping what the store holds below their old checkpoints.
import type Database from 'better-sqlite3';
import { comparePositions, type EventStore } from '../event-store/event-store.port';

const BINDING_SCHEMA = 'CREATE TABLE IF NOT EXISTS read_model_store (store_id TEXT NOT NULL)';

/** Tables whose `position` column is a checkpoint into the store (projection rows and the rate-limit snapshot). */
const CHECKPOINT_QUERIES: Record<string, string> = {
  projection_checkpoints: 'SELECT position FROM projection_checkpoints',
  rate_limit_ledger_snapshot: 'SELECT position FROM rate_limit_ledger_snapshot WHERE position IS NOT NULL',
};

export type BindingDecision = { kind: 'keep' } | { kind: 'rebuild'; reason: string };

export interface StoreFacts {
  storeId: string;
  head: string | null;
}

/** Pure: whether read models recorded for `recordedStoreId` with these checkpoints fit the store. */
export function decideBinding(recordedStoreId: string | null, checkpoints: readonly string[], store: StoreFacts): BindingDecision {
  if (recordedStoreId !== null && recordedStoreId !== store.storeId) {
    return { kind: 'rebuild', reason: `read models were built from event store ${recordedStoreId}, this is ${store.storeId}` };
  }
  for (const checkpoint of checkpoints) {
    if (store.head === null || comparePositions(checkpoint, store.head) > 0) {
      return { kind: 'rebuild', reason: `checkpoint ${checkpoint} is past the store's head ${String(store.head)} (restored from an older backup?)` };
    }
  }
  return { kind: 'keep' };
}

/** Checks the binding, drops every table when it does not hold, and records the store's id. */
export async function bindReadModelsToStore(
  db: Database.Database,
  store: Pick<EventStore, 'storeId' | 'headPosition'>,
  onRebuild: (reason: string) => void,
): Promise<BindingDecision> {
  const facts: StoreFacts = { storeId: await store.storeId(), head: await store.headPosition() };
  db.exec(BINDING_SCHEMA);
  const recorded = db.prepare<[], { store_id: string }>('SELECT store_id FROM read_model_store').get()?.store_id ?? null;
  const decision = decideBinding(recorded, checkpointsIn(db), facts);
  db.transaction(() => {
    if (decision.kind === 'rebuild') {
      for (const table of userTables(db)) db.exec(`DROP TABLE "${table}"`);
      db.exec(BINDING_SCHEMA);
    }
    db.prepare('DELETE FROM read_model_store').run();
    db.prepare('INSERT INTO read_model_store (store_id) VALUES (?)').run(facts.storeId);
  }).immediate();
  if (decision.kind === 'rebuild') onRebuild(decision.reason);
  return decision;
}

/** The store id read-models.sqlite was bound to, or null (never bound, or an empty file). */
export function recordedStoreId(db: Database.Database): string | null {
  const bound = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'read_model_store'").get()!.n > 0;
  return bound ? (db.prepare<[], { store_id: string }>('SELECT store_id FROM read_model_store').get()?.store_id ?? null) : null;
}

function checkpointsIn(db: Database.Database): string[] {
  const present = new Set(userTables(db));
  return Object.entries(CHECKPOINT_QUERIES)
    .filter(([table]) => present.has(table))
    .flatMap(([, query]) => db.prepare<[], { position: string }>(query).all().map((row) => row.position));
}

function userTables(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all()
    .map((row) => row.name);
}
