// Start-up refuses a broken configuration at once, naming the offending path.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestConfig } from '../support/config-file';

const ROOT = join(__dirname, '..', '..');

function startWith(mutate: (raw: any) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-config-'));
  try {
    const config = writeTestConfig(dir, 'sk-x', mutate);
    return spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dir, PORT: '0', SIMULATOR_URL: 'http://127.0.0.1:9' },
      encoding: 'utf8',
      timeout: 60_000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('start-up with a broken configuration', () => {
  jest.setTimeout(120_000);

  it('exits non-zero with the path of a price that is not a decimal', () => {
    const run = startWith((raw) => (raw.models[3].pricing.input.audio.tokens = 'twelve'));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('models[3].pricing.input.audio.tokens: not a decimal');
    expect(run.stdout).not.toContain('listening');
  });

  it('exits non-zero naming a missing price and an unknown alias member together', () => {
    const run = startWith((raw) => {
      delete raw.models[0].pricing.output.text;
      raw.aliases[0].members.push('ghost');
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('models[0].pricing.output.text.tokens: missing price');
    expect(run.stderr).toContain("aliases[0].members[2]: unknown model 'ghost'");
  });
});
