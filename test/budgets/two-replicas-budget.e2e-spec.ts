// Two gateway processes on one embedded store, one key with a 0.001 USD limit: holds are conditional
// appends on the key's budget stream, so together the replicas never spend past the limit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcess, GatewayProcess, SHARED_CURSOR_KEY } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';

const KEY = 'sk-budget-replicas';
const LIMIT_MICROS = 1000n;
jest.setTimeout(180_000);

describe('a spend limit across two replicas', () => {
  let simulator: RunningSimulator;
  let dataDir: string;
  let replicas: GatewayProcess[];

  beforeAll(async () => {
    simulator = await startSimulator();
    dataDir = mkdtempSync(join(tmpdir(), 'gw-budget-replicas-'));
    const config = writeTestConfig(dataDir, KEY, (raw) => {
      raw.keys[0].limit_usd = '0.001';
      raw.organizations[0].rate_limit = { requests: 10_000, window_seconds: 60 };
    });
    const env = { GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dataDir, SIMULATOR_URL: simulator.url, GATEWAY_CURSOR_SECRET: SHARED_CURSOR_KEY };
    replicas = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill()));
    await simulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const chat = (url: string, stream: boolean) =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'aria', messages: [{ role: 'user', content: 'Say hi in a few words.' }], max_tokens: 16, stream }),
    }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });

  it('never spends past the limit with both replicas holding at once', async () => {
    const statuses: number[] = [];
    for (let round = 0, served = 1; round < 60 && served > 0; round++) {
      const outcomes = await Promise.all(replicas.flatMap((replica) => [false, true, false].map((stream) => chat(replica.url, stream))));
      served = outcomes.filter((status) => status === 200).length;
      statuses.push(...outcomes);
    }
    const store = await SqliteEventStore.open(dataDir);
    const events = await store.readAll({ after: null, maxCount: 100_000 });
    await store.close();
    const costs = events.filter((e) => e.type === 'CostPriced').map((e) => BigInt((e.data as { costUsdMicros: number }).costUsdMicros));
    const spent = costs.reduce((sum, cost) => sum + cost, 0n);
    const holds = events.filter((e) => e.type === 'SpendHeld');
    const admitted = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 402).length;
    const byStatus = statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
    process.stdout.write(`two replicas, limit ${LIMIT_MICROS} micros: spent ${spent} micros over ${admitted} requests, ${refused} refused, ${holds.length} holds; statuses ${JSON.stringify(byStatus)}\n`);
    // Any other status: the replicas' first warnings and errors say why.
    const firstProblems = (replica: GatewayProcess) => replica.output().split('\n').filter((line) => /"level":(40|50|60)/.test(line)).slice(0, 5);
    if (admitted + refused !== statuses.length) process.stdout.write(`${replicas.flatMap(firstProblems).join('\n')}\n`);
    expect(admitted + refused).toBe(statuses.length);
    expect(refused).toBeGreaterThan(0);
    expect(costs).toHaveLength(admitted);
    expect(holds).toHaveLength(admitted);
    expect(spent).toBeLessThanOrEqual(LIMIT_MICROS);
  });
});
