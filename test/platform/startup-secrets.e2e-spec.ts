// Start-up refuses placeholder or short secrets and an open /metrics off loopback, in one clear line
// without the secret's value or a stack (docs/security.md "Secrets at start-up"); each opt-out
// starts the gateway with a warning instead.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestConfig } from '../support/config-file';
import { startGatewayProcess } from '../support/gateway-process';

const ROOT = join(__dirname, '..', '..');
const PLACEHOLDER = 'change-me-to-a-long-random-string';

function refusedStart(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-secrets-'));
  try {
    const startedAt = performance.now();
    const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, GATEWAY_CONFIG: writeTestConfig(dir, 'sk-x'), GATEWAY_DATA_DIR: dir, PORT: '0', SIMULATOR_URL: 'http://127.0.0.1:9', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    console.log(`refused in ${(performance.now() - startedAt).toFixed(0)} ms (ts-node start included): ${run.stderr.trim()}`);
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('start-up secrets', () => {
  jest.setTimeout(120_000);

  it('refuses the shipped placeholders in one line naming them, not their values', () => {
    const run = refusedStart({ GATEWAY_CURSOR_SECRET: PLACEHOLDER, GATEWAY_METRICS_TOKEN: 'short-token' });
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('listening');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const { msg } = JSON.parse(lines[0]) as { msg: string };
    expect(msg).toMatch(/^gateway refused to start: GATEWAY_CURSOR_SECRET is a placeholder value: .* \| GATEWAY_METRICS_TOKEN has 11 characters, fewer than 32/);
    expect(run.stderr).not.toContain(PLACEHOLDER);
    expect(run.stderr).not.toContain('short-token');
    expect(run.stderr).not.toContain('"stack"');
  });

  it('refuses an open /metrics on a non-loopback address', () => {
    const run = refusedStart({ HOST: '0.0.0.0' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('GET /metrics would be open to anyone on 0.0.0.0: set GATEWAY_METRICS_TOKEN (or GATEWAY_METRICS=off); or set GATEWAY_METRICS_PUBLIC=1 to start anyway');
  });

  it('starts with GATEWAY_ALLOW_WEAK_SECRETS=1, warning loudly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-secrets-'));
    const gateway = await startGatewayProcess({ GATEWAY_CONFIG: writeTestConfig(dir, 'sk-x'), GATEWAY_DATA_DIR: dir, SIMULATOR_URL: 'http://127.0.0.1:9', GATEWAY_CURSOR_SECRET: 'weak', GATEWAY_ALLOW_WEAK_SECRETS: '1' });
    try {
      expect(gateway.output()).toContain('INSECURE: GATEWAY_CURSOR_SECRET has 4 characters, fewer than 32');
      expect(gateway.output()).toContain('(allowed by GATEWAY_ALLOW_WEAK_SECRETS=1)');
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    } finally {
      await gateway.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
