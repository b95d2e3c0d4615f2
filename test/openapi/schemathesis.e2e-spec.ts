// schemathesis against the served /openapi.json: every check on every operation, a bounded number
// of examples (SCHEMATHESIS_MAX_EXAMPLES, default 100), the demo key, rate limits out of the way.
// Per-operation expectations are in test/openapi/schemathesis.toml and docs/openapi.md. The run's
// summary is printed into the test output (and `npm test`'s).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startTestGateway, TestGateway } from '../support/test-gateway';

const ROOT = join(__dirname, '..', '..');

interface Run {
  code: number | null;
  output: string;
}

/** Async on purpose: the gateway under test answers from this process's event loop. */
function runSchemathesis(baseUrl: string, apiKey: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['scripts/schemathesis.sh', baseUrl, apiKey], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** From the SUMMARY banner's line to the end: operations, phases, failures, test cases. */
const summaryOf = (output: string) => output.slice(output.lastIndexOf('\n', output.lastIndexOf(' SUMMARY ')) + 1);

describe('schemathesis against /openapi.json', () => {
  let gw: TestGateway;
  let run: Run;

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        for (const organization of config.organizations) organization.rate_limit = { requests: 1_000_000, window_seconds: 60 };
      },
    });
    run = await runSchemathesis(gw.baseUrl, gw.apiKey);
    process.stdout.write(`\n[schemathesis] ${gw.baseUrl}/openapi.json\n${summaryOf(run.output)}\n`);
  }, 300_000);
  afterAll(() => gw?.close());

  it('tests every operation of the document', () => {
    const selected = /Selected: (\d+)\/(\d+)/.exec(run.output);
    const tested = /Tested: (\d+)/.exec(run.output);
    expect(selected && tested).toBeTruthy();
    expect(Number(tested![1])).toBe(Number(selected![2]));
  });

  it('finds no failure and no error', () => {
    const failures = run.output.slice(run.output.indexOf('= FAILURES ='), run.output.indexOf('= SUMMARY ='));
    expect({ exitCode: run.code, failures: run.code === 0 ? '' : failures || run.output }).toEqual({ exitCode: 0, failures: '' });
  });
});
