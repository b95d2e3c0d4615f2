import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { dumpTables, openReadModelDb } from '../../projections/read-model-db';
import { catchUpProjection, isCaughtUp, startProjection } from '../../projections/projection-runner';
import { ModelStatusProjection, MODEL_STATUS_TABLES } from '../../models/model-status/model-status.projection';
import { appendCostPriced, appendModelStatus, costPriced, lineItem } from '../../../test/support/projection-test-events';
import { DailyCostProjection } from './daily-cost.projection';
import { CostReadModel } from './cost-read-model';
import { COST_TABLES } from './cost-tables';

const TABLES = [...COST_TABLES, ...MODEL_STATUS_TABLES, 'projection_checkpoints'];

async function waitUntil(condition: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('daily cost and model status projections', () => {
  jest.setTimeout(60_000);
  let root: string;
  let store: SqliteEventStore;
  const dir = (name: string): string => join(root, name);

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'projections-'));
    store = await SqliteEventStore.open(dir('events'));
  });

  afterEach(async () => {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function appendDay(offset: number): Promise<void> {
    for (let n = 0; n < 5; n++) {
      const org = n % 2 === 0 ? 'org-a' : 'org-b';
      const at = `2025-03-${String(10 + offset).padStart(2, '0')}T${String(n * 5).padStart(2, '0')}:00:00Z`;
      await appendCostPriced(store, costPriced(`req-${offset}-${n}`, org, at, [lineItem('gpt-mini, input text tokens', 100 + n, `${n}.25`), lineItem('gpt-mini, output text tokens', 7, '0.1')]));
    }
    await appendModelStatus(store, { model: 'gpt-mini', status: offset % 2 ? 'cold' : 'warm', previous: null, observedAt: `2025-03-1${offset}T12:00:00Z`, reason: 'probe' });
  }

  function openProjections(name: string): { db: Database.Database; cost: DailyCostProjection; status: ModelStatusProjection } {
    const db = openReadModelDb(dir(name));
    return { db, cost: new DailyCostProjection(db), status: new ModelStatusProjection(db) };
  }

  it('builds live across a crash and equals a rebuild from the beginning, byte for byte', async () => {
    await appendDay(0);
    const first = openProjections('live');
    const running = [startProjection(store, first.cost), startProjection(store, first.status)];
    await appendDay(1);
    await waitUntil(async () => (await isCaughtUp(store, first.cost)) && (await isCaughtUp(store, first.status)));
    // Crash: the read model is dropped without a graceful stop, more events arrive meanwhile.
    await Promise.all(running.map((subscription) => subscription.stop()));
    first.db.close();
    await appendDay(2);

    const resumed = openProjections('live');
    const resumedRuns = [startProjection(store, resumed.cost), startProjection(store, resumed.status)];
    await appendDay(3);
    await waitUntil(async () => (await isCaughtUp(store, resumed.cost)) && (await isCaughtUp(store, resumed.status)));
    await Promise.all(resumedRuns.map((subscription) => subscription.stop()));

    const rebuilt = openProjections('rebuilt');
    await catchUpProjection(store, rebuilt.cost);
    await catchUpProjection(store, rebuilt.status);
    const liveDump = dumpTables(resumed.db, TABLES);
    expect(liveDump).toBe(dumpTables(rebuilt.db, TABLES));
    expect(liveDump.split('\n')).toHaveLength(4 + 4 * 2 * 2 + 4 * 2 + 1 + 2);
    expect(resumed.status.statuses().get('gpt-mini')).toEqual({ status: 'cold', observedAt: '2025-03-13T12:00:00Z' });
    resumed.db.close();
    rebuilt.db.close();
  });

  it('sums amounts and quantities exactly per organization, day and line item', async () => {
    await appendDay(0);
    await appendDay(0); // same request ids: the store keeps one copy, so nothing doubles
    const { db, cost } = openProjections('sums');
    await catchUpProjection(store, cost);
    const model = new CostReadModel(db);
    expect(model.rows('org-a', '2025-03-10', '2025-03-11', 'line_item')).toEqual([
      { day: '2025-03-10', group: 'gpt-mini, input text tokens', amountUsdMicros: 306n },
      { day: '2025-03-10', group: 'gpt-mini, output text tokens', amountUsdMicros: 21n },
    ]);
    expect(model.rows('org-a', '2025-03-10', '2025-03-11', null)).toEqual([{ day: '2025-03-10', group: null, amountUsdMicros: 327n }]);
    expect(db.prepare("SELECT quantity FROM cost_line_items WHERE organization_id = 'org-a' AND line_item LIKE '%input%'").pluck().get()).toBe('6.75');
    expect(model.rows('org-a', '2025-03-11', '2025-03-12', null)).toEqual([]);
    db.close();
  });

  it('ignores an event delivered again, or one older than the checkpoint', async () => {
    await appendDay(0);
    const { db, cost } = openProjections('redelivery');
    await catchUpProjection(store, cost);
    const before = dumpTables(db, TABLES);
    const events = await store.readAll({ after: null, maxCount: 100 });
    for (const event of events) cost.apply(event);
    cost.apply(events[0]);
    expect(dumpTables(db, TABLES)).toBe(before);
    db.close();
  });

  it('keeps rows and checkpoint together when a write fails halfway', async () => {
    await appendCostPriced(store, costPriced('ok', 'org-a', '2025-03-10T00:00:00Z', [lineItem('fine', 5, '1')]));
    await appendCostPriced(store, costPriced('boom', 'org-a', '2025-03-10T00:00:00Z', [lineItem('fine', 5, '1'), lineItem('boom', 5, '1')]));
    const { db, cost } = openProjections('atomic');
    db.exec(`CREATE TRIGGER fail_boom BEFORE INSERT ON cost_line_items WHEN NEW.line_item = 'boom'
             BEGIN SELECT RAISE(ABORT, 'disk went away'); END`);
    const [ok, boom]: RecordedEvent[] = await store.readAll({ after: null, maxCount: 2 });
    cost.apply(ok);
    const afterOk = dumpTables(db, TABLES);
    expect(() => cost.apply(boom)).toThrow('disk went away');
    expect(dumpTables(db, TABLES)).toBe(afterOk);
    expect(cost.checkpoint()).toBe(ok.position);
    db.exec('DROP TRIGGER fail_boom');
    cost.apply(boom);
    expect(new CostReadModel(db).rows('org-a', '2025-03-10', '2025-03-11', null)).toEqual([{ day: '2025-03-10', group: null, amountUsdMicros: 15n }]);
    db.close();
  });

  it('lets two processes share one read model without double counting', async () => {
    await appendDay(0);
    const a = openProjections('shared');
    const b = openProjections('shared');
    const events = await store.readAll({ after: null, maxCount: 100 });
    for (const event of events) {
      a.cost.apply(event);
      b.cost.apply(event);
    }
    expect(new CostReadModel(a.db).rows('org-b', '2025-03-10', '2025-03-11', null)).toEqual([{ day: '2025-03-10', group: null, amountUsdMicros: 218n }]);
    a.db.close();
    b.db.close();
  });
});
