// The served statuses and the events recorded, on a real SQLite store and read-model database: a change this
// replica appended stays served until the projection folds it, so a page about another model in between does
// not make the next observation record the same change again; a change whose append failed is recorded anew.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { ProbeConfig } from '../../config/gateway-config';
import { EventStore } from '../../event-store/event-store.port';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { openReadModelDb } from '../../projections/read-model-db';
import type { UpstreamClient } from '../../upstream/upstream.client';
import { ModelStatusService } from './model-status.service';

const PROBE = { interval_ms: 60_000, stale_after_intervals: 3 } as ProbeConfig;
const model = (id: string) => ({ id }) as CatalogModel;
const NO_ROUTER = { router: { listen: () => undefined } } as unknown as UpstreamClient;

describe('ModelStatusService on a real store', () => {
  let dataDir: string;
  let store: SqliteEventStore;
  let readModels: Database.Database;
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gw-model-status-'));
    store = await SqliteEventStore.open(dataDir);
    readModels = openReadModelDb(dataDir);
  });
  afterEach(async () => {
    readModels.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const statusesOf = async (modelId: string) => (await store.readStream(`model-status-${modelId}`)).map((event) => (event.data as { status: string }).status);
  /** What the projection hub does: the model's recorded changes folded and served. */
  const fold = async (service: ModelStatusService, modelId: string) => service.consumer.applyPage(await store.readStream(`model-status-${modelId}`));

  it('records a change once when a page about another model is served before it is folded', async () => {
    const service = new ModelStatusService({} as never, store, NO_ROUTER, PROBE, readModels);
    await service.observe(model('aria'), 'warm', 'probe');
    await fold(service, 'aria');
    await service.observe(model('aria'), 'cold', 'probe');
    await service.observe(model('verdict'), 'cold', 'probe');
    await fold(service, 'verdict');
    expect(service.isCold('aria')).toBe(true);
    await service.observe(model('aria'), 'cold', 'upstream answered 503 with Retry-After');
    expect(await statusesOf('aria')).toEqual(['warm', 'cold']);
    await fold(service, 'aria');
    await service.observe(model('aria'), 'warm', 'probe');
    expect(await statusesOf('aria')).toEqual(['warm', 'cold', 'warm']);
  });

  it('records a change again when its first append failed and the projection served the old status', async () => {
    let failNext = true;
    const flaky = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== 'append') return Reflect.get(target, property, receiver);
        return (...args: Parameters<EventStore['append']>) => {
          if (!failNext) return target.append(...args);
          failNext = false;
          return Promise.reject(new Error('store unavailable'));
        };
      },
    });
    const service = new ModelStatusService({} as never, flaky, NO_ROUTER, PROBE, readModels);
    await service.observe(model('aria'), 'warm', 'probe');
    await service.observe(model('verdict'), 'warm', 'probe');
    await fold(service, 'verdict');
    await service.observe(model('aria'), 'warm', 'probe');
    expect(await statusesOf('aria')).toEqual(['warm']);
  });
});
