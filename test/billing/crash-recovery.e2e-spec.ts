// A gateway serving requests is killed with SIGKILL mid-load. After a restart every request that got a
// 200 has exactly one UsageMeasured and one CostPriced, and the ledger check finds no difference.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcess } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import { readBilledRequests } from '../support/billed-requests';

const KEY = 'sk-crash-test';
jest.setTimeout(180_000);

async function decide(url: string): Promise<string | null> {
  try {
    const res = await fetch(`${url}/v1/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'verdict', input: 'Is the sky blue?', questions: [{ type: 'predicate', instructions: 'Is it?' }] }),
    });
    await res.arrayBuffer();
    return res.status === 200 ? res.headers.get('x-request-id') : null;
  } catch {
    return null;
  }
}

describe('crash recovery', () => {
  let simulator: RunningSimulator;
  let dataDir: string;

  beforeAll(async () => {
    simulator = await startSimulator();
    dataDir = mkdtempSync(join(tmpdir(), 'gw-crash-'));
  });
  afterAll(async () => {
    await simulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('bills every answered request exactly once across a SIGKILL', async () => {
    const config = writeTestConfig(dataDir, KEY, (raw) => (raw.organizations[0].rate_limit = { requests: 100000, window_seconds: 60 }));
    const env = { GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dataDir, SIMULATOR_URL: simulator.url };
    const first = await startGatewayProcess(env);
    const answered: string[] = [];
    let stop = false;
    const workers = Array.from({ length: 16 }, async () => {
      while (!stop) {
        const id = await decide(first.url);
        if (id) answered.push(id);
      }
    });
    while (answered.length < 300) await new Promise((r) => setTimeout(r, 20));
    await first.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);

    const second = await startGatewayProcess(env);
    expect(await decide(second.url)).not.toBeNull();
    const today = Math.floor(Date.now() / 86_400_000) * 86_400;
    const costs = await fetch(`${second.url}/v1/organization/costs?start_time=${today}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(costs.status).toBe(200);
    await second.kill('SIGTERM');

    const { counts, ledger } = await readBilledRequests(dataDir);
    expect(ledger.differences).toEqual([]);
    expect(ledger.costEventsReplayed).toBe(counts.size);
    process.stdout.write(`crash test: ${answered.length} answered before SIGKILL, ${counts.size} billed requests recorded\n`);
    for (const id of answered) expect(counts.get(id)).toEqual({ usage: 1, cost: 1 });
    for (const entry of counts.values()) expect(entry).toEqual({ usage: 1, cost: 1 });
  });
});
