// Real SQLite event stores and read-models file: the read models follow the store they were built from.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { CheckpointStore, openReadModelDb } from './read-model-db';
import { bindReadModelsToStore } from './read-model-store-binding';

let root: string;
let readModels: Database.Database;
const stores: SqliteEventStore[] = [];

async function storeWithEvents(name: string, count: number): Promise<SqliteEventStore> {
  const store = await SqliteEventStore.open(join(root, name));
  stores.push(store);
  for (let i = 0; i < count; i++) await store.append(`request-${name}-${i}`, [{ id: randomUUID(), type: 'RequestAdmitted', data: { i } }]);
  return store;
}

/** A projection's rows and checkpoint, as one would have written them. */
function projectUpTo(position: string): void {
  readModels.exec('CREATE TABLE IF NOT EXISTS cost_daily_totals (day TEXT PRIMARY KEY, micros TEXT NOT NULL)');
  readModels.prepare("INSERT OR REPLACE INTO cost_daily_totals VALUES ('2026-11-24', '5')").run();
  new CheckpointStore(readModels).set('costs', position);
}

const tableNames = (): string[] => readModels.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r.name);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'read-model-binding-'));
  readModels = openReadModelDb(join(root, 'read-models'));
});

afterEach(async () => {
  readModels.close();
  await Promise.all(stores.splice(0).map((store) => store.close()));
  rmSync(root, { recursive: true, force: true });
});

it('keeps read models across restarts on the same store', async () => {
  const store = await storeWithEvents('a', 3);
  const rebuilds: string[] = [];
  await bindReadModelsToStore(readModels, store, (reason) => rebuilds.push(reason));
  projectUpTo((await store.headPosition())!);
  await expect(bindReadModelsToStore(readModels, store, (reason) => rebuilds.push(reason))).resolves.toEqual({ kind: 'keep' });
  expect(rebuilds).toEqual([]);
  expect(new CheckpointStore(readModels).get('costs')).toBe('3');
});

it('drops every read model when the data directory now points at another store with overlapping positions', async () => {
  const first = await storeWithEvents('a', 3);
  await bindReadModelsToStore(readModels, first, () => undefined);
  projectUpTo('3');
  const second = await storeWithEvents('b', 5);
  const rebuilds: string[] = [];
  const decision = await bindReadModelsToStore(readModels, second, (reason) => rebuilds.push(reason));
  expect(decision.kind).toBe('rebuild');
  expect(rebuilds[0]).toContain(await first.storeId());
  expect(tableNames()).toEqual(['read_model_store']);
  expect(readModels.prepare('SELECT store_id FROM read_model_store').all()).toEqual([{ store_id: await second.storeId() }]);
});

it('drops them when a checkpoint is past the head of the same store (a restore of an older backup)', async () => {
  const store = await storeWithEvents('a', 3);
  await bindReadModelsToStore(readModels, store, () => undefined);
  projectUpTo('4');
  await expect(bindReadModelsToStore(readModels, store, () => undefined)).resolves.toMatchObject({ kind: 'rebuild', reason: expect.stringContaining('past the store') });
  expect(new CheckpointStore(readModels).get('costs')).toBeNull();
});
