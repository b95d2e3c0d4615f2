// schemathesis against the served /openapi.json: every check on every operation, a bounded number
// of examples (SCHEMATHESIS_MAX_EXAMPLES, default 100), the demo key, rate limits out of the way.
// Per-operation expectations are in test/openapi/schemathesis.toml and docs/openapi.md. The run's
// report goes to .cache/schemathesis/main.txt; the test output gets one line of ours (its closing
// pytest-style banner would read to CI as the end of a run that executed nothing).
import { failuresOf, runSchemathesis, summaryLine, type SchemathesisRun } from '../support/schemathesis-run';
import { startTestGateway, TestGateway } from '../support/test-gateway';

describe('schemathesis against /openapi.json', () => {
  let gw: TestGateway;
  let run: SchemathesisRun;

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        for (const organization of config.organizations) organization.rate_limit = { requests: 1_000_000, window_seconds: 60 };
      },
    });
    run = await runSchemathesis('main', gw.baseUrl, gw.apiKey);
    process.stdout.write(`${summaryLine('demo key', run)}\n`);
  }, 300_000);
  afterAll(() => gw?.close());

  it('tests every operation of the document', () => {
    const selected = /Selected: (\d+)\/(\d+)/.exec(run.output);
    const tested = /Tested: (\d+)/.exec(run.output);
    expect(selected && tested).toBeTruthy();
    expect(Number(tested![1])).toBe(Number(selected![2]));
  });

  it('finds no failure and no error', () => {
    expect({ exitCode: run.code, failures: failuresOf(run) }).toEqual({ exitCode: 0, failures: '' });
  });
});
