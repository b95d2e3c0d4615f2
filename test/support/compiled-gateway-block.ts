// A compiled gateway child process (JavaScript, as in the pod) started before a describe block's tests
// and stopped after them, on the simulator, for tests that read the process's memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcess, type GatewayProcess } from './gateway-process';
import { transpileGateway, type TranspiledGateway } from './transpiled-gateway';
import { writeTestConfig } from './config-file';

export interface CompiledGatewayBlock {
  gateway(): GatewayProcess;
  dataDir(): string;
}

/** Call inside a describe block: the gateway runs for the block's tests, with `key` on a generous rate limit. */
export function compiledGatewayForBlock(key: string, dirPrefix: string): CompiledGatewayBlock {
  let simulator: RunningSimulator;
  let gateway: GatewayProcess;
  let dataDir: string;
  let compiled: TranspiledGateway;
  beforeAll(async () => {
    simulator = await startSimulator();
    dataDir = mkdtempSync(join(tmpdir(), dirPrefix));
    const config = writeTestConfig(dataDir, key, (raw) => (raw.organizations[0].rate_limit = { requests: 100000, window_seconds: 60 }));
    gateway = await startGatewayProcess({ GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dataDir, SIMULATOR_URL: simulator.url }, 60_000, (compiled = transpileGateway()).entry);
  });
  afterAll(async () => {
    await gateway?.kill();
    await simulator?.close();
    rmSync(dataDir, { recursive: true, force: true });
    compiled?.remove();
  });
  return { gateway: () => gateway, dataDir: () => dataDir };
}
