// schemathesis on the management operations (/v1/keys..., /v1/organizations/{id}/budget) with a
// management key: the main run (schemathesis.e2e-spec.ts) uses the demo model key, which these answer
// with 403 management_key_required, so only this run reaches their validation and answers. Every check,
// the same configuration and hooks; the management window is raised so fuzzing is not throttled.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { hashApiKey } from '../../src/access/key-hash';

const ROOT = join(__dirname, '..', '..');
const MANAGEMENT_KEY = 'sk-mgmt-schemathesis-0123456789';
const MANAGEMENT_PATHS = '^/v1/(keys|organizations/)';

function runSchemathesis(baseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['scripts/schemathesis.sh', baseUrl, MANAGEMENT_KEY, '--include-path-regex', MANAGEMENT_PATHS], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('schemathesis against the management operations, with a management key', () => {
  let gw: TestGateway;
  let run: { code: number | null; output: string };

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.management_keys.push({ id: 'mgmt-schemathesis', hash: hashApiKey(MANAGEMENT_KEY) });
        config.management_rate_limit = { requests: 1_000_000, window_seconds: 60 };
      },
    });
    run = await runSchemathesis(gw.baseUrl);
    process.stdout.write(`\n[schemathesis, management key] ${run.output.slice(run.output.lastIndexOf('\n', run.output.lastIndexOf(' SUMMARY ')) + 1)}\n`);
  }, 300_000);
  afterAll(() => gw?.close());

  it('tests all seven management operations', () => {
    expect(/Selected: (\d+)\/\d+/.exec(run.output)?.[1]).toBe('7');
    expect(/Tested: (\d+)/.exec(run.output)?.[1]).toBe('7');
  });

  it('finds no failure and no error', () => {
    const failures = run.output.slice(run.output.indexOf('= FAILURES ='), run.output.indexOf('= SUMMARY ='));
    expect({ exitCode: run.code, failures: run.code === 0 ? '' : failures || run.output }).toEqual({ exitCode: 0, failures: '' });
  });
});
