// SIGTERM under load: the gateway finishes what it answered, closes its stores and exits 0. Every
// answered request is billed exactly once, the stores are left closed (no WAL left behind), and a
// request that arrives on a kept-alive connection while it closes gets the spec's 503 envelope.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcess } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import { readBilledRequests } from '../support/billed-requests';

const KEY = 'sk-shutdown-test';
jest.setTimeout(120_000);

describe('graceful shutdown', () => {
  let simulator: RunningSimulator;
  let dataDir: string;

  beforeAll(async () => {
    simulator = await startSimulator();
    dataDir = mkdtempSync(join(tmpdir(), 'gw-shutdown-'));
  });
  afterAll(async () => {
    await simulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 0 on SIGTERM mid-load: answered requests billed once, late ones refused in the envelope, stores closed', async () => {
    const config = writeTestConfig(dataDir, KEY, (raw) => (raw.organizations[0].rate_limit = { requests: 100000, window_seconds: 60 }));
    const gateway = await startGatewayProcess({ GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dataDir, SIMULATOR_URL: simulator.url });
    const client = new OpenAI({ apiKey: KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const answered: string[] = [];
    const refused: unknown[] = [];
    let stop = false;
    const workers = Array.from({ length: 8 }, async () => {
      while (!stop) {
        const completion = await client.chat.completions
          .create({ model: 'aria', messages: [{ role: 'user', content: 'Say hello.' }] })
          .catch((error: unknown) => void refused.push(error));
        if (completion) answered.push(completion._request_id!);
      }
    });
    while (answered.length < 100) await new Promise((resolve) => setTimeout(resolve, 10));

    const exit = await gateway.kill('SIGTERM');
    stop = true;
    await Promise.all(workers);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, 'events.sqlite-wal'))).toBe(false);
    expect(existsSync(join(dataDir, 'read-models.sqlite-wal'))).toBe(false);
    const { counts, ledger } = await readBilledRequests(dataDir);
    expect(ledger.differences).toEqual([]);
    for (const id of answered) expect(counts.get(id)).toEqual({ usage: 1, cost: 1 });

    const enveloped = refused.filter((error) => error instanceof OpenAI.APIError && error.status === 503);
    const unreachable = refused.filter((error) => error instanceof OpenAI.APIConnectionError);
    expect(enveloped.length + unreachable.length).toBe(refused.length);
    expect(enveloped.length).toBeGreaterThan(0);
    for (const error of enveloped as InstanceType<typeof OpenAI.APIError>[]) {
      expect(error.error).toEqual({ message: 'The gateway is shutting down; retry the request.', type: 'service_unavailable', param: null, code: 'shutting_down' });
      expect(error.headers?.get('retry-after')).toBe('1');
      expect(error.headers?.get('connection')).toBe('close');
    }
  });
});
