import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { openReadModelDb } from '../read-model-db';
import { catchUpProjection } from '../projection-runner';
import { appendCostPriced, costPriced, lineItem } from '../projection-test-events';
import { runLedgerCheck } from '../../billing/cli/ledger-check.cli';
import { DailyCostProjection } from './daily-cost.projection';
import { CostReadModel } from './cost-read-model';
import { checkLedger } from './ledger-check';

describe('ledger check', () => {
  jest.setTimeout(60_000);
  let dataDir: string;
  let store: SqliteEventStore;
  let db: Database.Database;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-'));
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
    db.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds no difference when the read model matches the replay', async () => {
    const result = await checkLedger(store, new CostReadModel(db), 2);
    expect(result).toMatchObject({ checkpoint: '7', eventsReplayed: 7, costEventsReplayed: 7, differences: [] });
  });

  it('ignores events the projection has not reached yet', async () => {
    await appendCostPriced(store, costPriced('late', 'org-a', '2025-03-01T12:00:00Z', [lineItem('m, input text tokens', 5, '1')]));
    expect((await checkLedger(store, new CostReadModel(db))).differences).toEqual([]);
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
    const env = { GATEWAY_DATA_DIR: dataDir };
    const lines: string[] = [];
    expect(await runLedgerCheck(env, (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toContain('OK');
    db.exec(`UPDATE cost_daily_totals SET amount_usd_micros = 0 WHERE organization_id = 'org-b' AND day = '2025-03-01'`);
    lines.length = 0;
    expect(await runLedgerCheck(env, (line) => lines.push(line))).toBe(1);
    expect(lines.join('\n')).toContain('DIFF org-b 2025-03-01: ledger 1003 micros, read model 0 micros');
  });
});
