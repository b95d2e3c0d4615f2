// Two gateway processes share one embedded store (SQLite file, WAL): together they admit at most the
// organization's limit (leased budget slices: docs/rate-limits.md), and neither double-counts nor loses costs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcess, GatewayProcess } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { openReadModelDb } from '../../src/projections/read-model-db';
import { CostReadModel } from '../../src/projections/cost/cost-read-model';
import { checkLedger } from '../../src/projections/cost/ledger-check';

const KEY = 'sk-replicas';
const LIMIT = 40;
const CONCURRENCY_PER_REPLICA = 4;
jest.setTimeout(180_000);

describe('two replicas on one store', () => {
  let simulator: RunningSimulator;
  let dataDir: string;
  let replicas: GatewayProcess[];

  beforeAll(async () => {
    simulator = await startSimulator();
    dataDir = mkdtempSync(join(tmpdir(), 'gw-replicas-'));
    const config = writeTestConfig(dataDir, KEY, (raw) => (raw.organizations[0].rate_limit = { requests: LIMIT, window_seconds: 600 }));
    const env = { GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dataDir, SIMULATOR_URL: simulator.url, GATEWAY_CURSOR_SECRET: 'shared' };
    replicas = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill()));
    await simulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const decide = (url: string) =>
    fetch(`${url}/v1/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'verdict', input: 'evidence', questions: [{ type: 'predicate', instructions: 'true?' }] }),
    }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });

  it('admits at most the limit across both replicas, and the shared cost read model counts each cost once', async () => {
    const statuses: number[] = [];
    const clients = replicas.flatMap((replica) =>
      Array.from({ length: CONCURRENCY_PER_REPLICA }, async () => {
        for (let i = 0; i < 12; i++) statuses.push(await decide(replica.url));
      }),
    );
    await Promise.all(clients);
    const admitted = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 429).length;
    process.stdout.write(`two replicas: ${statuses.length} sent, ${admitted} admitted (limit ${LIMIT}), ${refused} refused\n`);
    expect(admitted + refused).toBe(statuses.length);
    // Tokens a replica still held unused when its clients stopped are the only budget left over.
    expect(admitted).toBeGreaterThanOrEqual(LIMIT / 2);
    expect(admitted).toBeLessThanOrEqual(LIMIT);

    const store = await SqliteEventStore.open(dataDir);
    const db = openReadModelDb(dataDir);
    const billed = (await store.readAll({ after: null, maxCount: 100_000 })).filter((e) => e.type === 'CostPriced');
    const micros = billed.reduce((sum, e) => sum + (e.data as { costUsdMicros: number }).costUsdMicros, 0);
    expect(billed).toHaveLength(admitted);
    const readModel = new CostReadModel(db);
    const projected = () => readModel.dailyTotalsSnapshot().totals.reduce((sum, t) => sum + t.amountUsdMicros, 0n);
    // A bound on the wait for the shared read model, not a timing assertion (busy machines are slow).
    for (const deadline = Date.now() + 60_000; projected() !== BigInt(micros) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    expect(projected()).toBe(BigInt(micros));
    const ledger = await checkLedger(store, readModel);
    db.close();
    await store.close();
    expect(ledger.differences).toEqual([]);
  });
});
