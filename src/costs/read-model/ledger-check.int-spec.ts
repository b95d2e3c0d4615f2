import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { openReadModelDb } from '../../projections/read-model-db';
import { catchUpProjection } from '../../projections/projection-runner';
import { appendCostPriced, costPriced, lineItem } from '../../../test/support/projection-test-events';
import { runLedgerCheck } from '../cli/ledger-check.cli';
import { ParkingLot } from '../../projections/parking/apply-or-park';
import { listParkedEvents, ParkedEvents } from '../../projections/parking/parked-events';
import { DailyCostProjection } from './daily-cost.projection';
import { CostReadModel } from './cost-read-model';
import { checkLedger, isLedgerClean } from './ledger-check';

describe('ledger check', () => {
  jest.setTimeout(60_000);
  let dataDir: string;
  let store: SqliteEventStore;
  let db: Database.Database;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-'));
    env = { GATEWAY_DATA_DIR: dataDir, LEDGER_CHECK_GRACE_MS: '0' };
    store = await SqliteEventStore.open(dataDir);
    db = openReadModelDb(dataDir);
    for (let n = 0; n < 6; n++) {
      const at = `2025-03-0${1 + (n % 3)}T23:59:59Z`;
      await appendCostPriced(store, costPriced(`req-${n}`, n < 3 ? 'org-a' : 'org-b', at, [lineItem('m, input text tokens', 1_000 + n, '1')]));
    }
    await appendCostPriced(store, { ...costPriced('free', 'org-a', '2025-03-01T00:00:00Z', []), costUsdMicros: null });
    await catchUpProjection(store, new DailyCostProjection(db));
  });

  afterEach(async () => {
    if (db.open) db.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function cli(args: string[] = []): Promise<{ exitCode: number; report: string }> {
    const lines: string[] = [];
    const exitCode = await runLedgerCheck(env, (line) => lines.push(line), args);
    console.log(`ledger:check ${args.join(' ')} -> exit ${exitCode}\n${lines.join('\n')}`);
    return { exitCode, report: lines.join('\n') };
  }

  async function appendOversized(requestId: string): Promise<void> {
    await appendCostPriced(store, { ...costPriced(requestId, 'org-a', '2025-03-01T12:00:00Z', []), costUsdMicros: 2 ** 53 + 2 });
  }

  it('finds no difference when the read model matches a replay of the whole store', async () => {
    const result = await checkLedger(store, new CostReadModel(db), 2);
    expect(result).toMatchObject({ checkpoint: '7', head: '7', eventsReplayed: 7, costEventsReplayed: 7, eventsNotProjected: 0, differences: [], parked: [], unpriced: [] });
    expect(isLedgerClean(result)).toBe(true);
  });

  it('replays what a read model behind the head has not applied and compares at the same position: exit 0, lag printed', async () => {
    await appendCostPriced(store, costPriced('late', 'org-a', '2025-03-01T12:00:00Z', [lineItem('m, input text tokens', 5, '1')]));
    await appendCostPriced(store, costPriced('later', 'org-c', '2025-03-04T12:00:00Z', [lineItem('m, input text tokens', 9, '1')]));
    const result = await checkLedger(store, new CostReadModel(db));
    expect(result).toMatchObject({ checkpoint: '7', head: '9', eventsReplayed: 9, eventsNotProjected: 2, foreignStore: null, differences: [] });
    expect(isLedgerClean(result)).toBe(true);
    const { exitCode, report } = await cli();
    expect(exitCode).toBe(0);
    expect(report).toContain('NOTE read model 2 event(s) behind the store head (checkpoint 7, head 9); replayed them for the comparison');
    expect(report).toContain('OK');
  });

  it('behind the head AND a real difference: exit 1 for the difference only, the lag still replayed', async () => {
    await appendCostPriced(store, costPriced('late', 'org-a', '2025-03-01T12:00:00Z', [lineItem('m, input text tokens', 5, '1')]));
    db.exec(`UPDATE cost_daily_totals SET amount_usd_micros = amount_usd_micros - 1 WHERE organization_id = 'org-a' AND day = '2025-03-01'`);
    const { exitCode, report } = await cli();
    expect(exitCode).toBe(1);
    // 1000 + 1003 at the checkpoint plus the replayed 5, against 2008 in the store.
    expect(report).toContain('DIFF org-a 2025-03-01: ledger 1005 micros, read model 1004 micros (delta -1)');
    expect(report).toContain('NOTE read model 1 event(s) behind the store head');
    expect(report).toContain('1 difference(s)');
  });

  it('reports a read model bound to another store, or past this store\'s head, as FOREIGN with exit 1', async () => {
    db.exec("CREATE TABLE read_model_store (store_id TEXT NOT NULL); INSERT INTO read_model_store VALUES ('another-store')");
    const foreign = await cli();
    expect(foreign.exitCode).toBe(1);
    expect(foreign.report).toContain(`FOREIGN read model: built from event store another-store, this is ${await store.storeId()}`);
    db.exec('DELETE FROM read_model_store');
    db.exec("UPDATE projection_checkpoints SET position = '12' WHERE projection = 'daily-cost'");
    const restored = await checkLedger(store, new CostReadModel(db));
    expect(restored.foreignStore).toBe("checkpoint 12 is past the store's head 7 (restored from an older backup?)");
    expect(isLedgerClean(restored)).toBe(false);
  });

  it('waits up to the grace period for a running projection to reach the head', async () => {
    await appendCostPriced(store, costPriced('late', 'org-a', '2025-03-01T12:00:00Z', [lineItem('m, input text tokens', 5, '1')]));
    setTimeout(() => void catchUpProjection(store, new DailyCostProjection(db)), 200);
    const result = await checkLedger(store, new CostReadModel(db), { catchUpGraceMs: 5_000 });
    expect(result).toMatchObject({ checkpoint: '8', head: '8', eventsNotProjected: 0, differences: [] });
  });

  it('reports a missing read model as a difference with a non-zero exit', async () => {
    db.close();
    rmSync(join(dataDir, 'read-models.sqlite'));
    const { exitCode, report } = await cli();
    expect(exitCode).toBe(1);
    expect(report).toContain('MISSING read model: no read-models.sqlite, the store holds events up to 7');
    expect(report).toContain('NOTE read model 7 event(s) behind the store head (checkpoint (none), head 7)');
  });

  it('reports a corrupted total, a missing day and an invented day', async () => {
    db.exec(`UPDATE cost_daily_totals SET amount_usd_micros = amount_usd_micros + 1 WHERE organization_id = 'org-a' AND day = '2025-03-02';
             DELETE FROM cost_daily_totals WHERE organization_id = 'org-b' AND day = '2025-03-03';
             INSERT INTO cost_daily_totals VALUES ('org-c', '2025-03-05', 42, 1);`);
    const { differences } = await checkLedger(store, new CostReadModel(db));
    expect(differences).toEqual([
      { organizationId: 'org-a', day: '2025-03-02', ledgerUsdMicros: 1001n, readModelUsdMicros: 1002n },
      { organizationId: 'org-b', day: '2025-03-03', ledgerUsdMicros: 1005n, readModelUsdMicros: 0n },
      { organizationId: 'org-c', day: '2025-03-05', ledgerUsdMicros: 0n, readModelUsdMicros: 42n },
    ]);
  });

  it('runs as the CLI: exit code 0 when equal, 1 with the differences printed', async () => {
    expect(await cli()).toMatchObject({ exitCode: 0, report: expect.stringContaining('OK') });
    db.exec(`UPDATE cost_daily_totals SET amount_usd_micros = 0 WHERE organization_id = 'org-b' AND day = '2025-03-01'`);
    const { exitCode, report } = await cli();
    expect(exitCode).toBe(1);
    expect(report).toContain('DIFF org-b 2025-03-01: ledger 1003 micros, read model 0 micros');
  });

  it('reports a parked CostPriced until an operator acknowledges it with the CLI', async () => {
    await appendOversized('huge');
    await appendCostPriced(store, costPriced('after', 'org-a', '2025-03-01T13:00:00Z', [lineItem('m, input text tokens', 7, '1')]));
    const parking = new ParkingLot(new ParkedEvents(db));
    await catchUpProjection(store, new DailyCostProjection(db), 512, parking);
    const [parked] = listParkedEvents(db);
    expect(parked).toMatchObject({ projection: 'daily-cost', position: '8', eventType: 'CostPriced', acknowledgedAt: null });

    const before = await cli();
    expect(before.exitCode).toBe(1);
    expect(before.report).toContain(`PARKED CostPriced ${parked.eventId} at 8 (request-huge), parked ${parked.parkedAt}: EventContractError: CostPriced "huge": costUsdMicros is not an integer number of micros: 9007199254740994`);
    expect(before.report).not.toContain('DIFF');

    const after = await cli([`--acknowledge-parked=${parked.eventId}`]);
    expect(after.exitCode).toBe(0);
    expect(after.report).toContain('acknowledged 1 parked event(s)');
    expect(after.report).toContain(`NOTE parked CostPriced ${parked.eventId} at 8 acknowledged`);
    expect(after.report).toContain('OK');
  });

  it('reports a CostPriced the fold rejects that the read model passed without parking it', async () => {
    await appendOversized('huge');
    const parking = new ParkingLot(new ParkedEvents(db));
    await catchUpProjection(store, new DailyCostProjection(db), 512, parking);
    db.exec('DELETE FROM parked_events');
    const { exitCode, report } = await cli();
    expect(exitCode).toBe(1);
    expect(report).toMatch(/UNPRICED CostPriced \S+ at 8, rejected by the fold but not parked: CostPriced "huge": costUsdMicros is not an integer/);
  });
});
