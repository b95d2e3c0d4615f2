// Run as its own process (test/platform/tracing.e2e-spec.ts): starts an in-process gateway on the
// embedded simulator, makes one chat request, and prints which OpenTelemetry modules got loaded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRuntimeEnv } from '../../src/config/gateway-config';
import { buildRuntime } from '../../src/core/build-runtime';
import { embeddedConfig } from '../../src/embedded-default';
import { startGateway } from '../../src/gateway';
import { startSimulator } from '../../src/simulator/simulator';

async function probe(): Promise<void> {
  const simulator = await startSimulator();
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-probe-'));
  const { config, demoKey } = embeddedConfig(simulator.url, null);
  const runtime = await buildRuntime(config, { ...readRuntimeEnv({}), port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent' });
  const gateway = await startGateway(runtime);
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'aria', messages: [{ role: 'user', content: 'hello' }] }),
  });
  await response.arrayBuffer();
  const loaded = Object.keys(require.cache).filter((path) => path.includes(`${'@opentelemetry'}/`));
  await gateway.close();
  await simulator.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(`PROBE ${JSON.stringify({ status: response.status, loaded })}\n`);
}

probe().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`probe failed: ${(error as Error).stack}\n`);
    process.exit(1);
  },
);
