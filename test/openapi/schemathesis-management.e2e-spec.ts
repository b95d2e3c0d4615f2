// schemathesis on the management operations (/v1/keys..., /v1/organizations/{id}/budget) with a
// management key: the main run (schemathesis.e2e-spec.ts) uses the demo model key, which these answer
// with 403 management_key_required, so only this run reaches their validation and answers. Every check,
// the same configuration and hooks; the management window is raised so fuzzing is not throttled.
import { failuresOf, runSchemathesis, summaryLine, type SchemathesisRun } from '../support/schemathesis-run';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { hashApiKey } from '../../src/access/key-hash';

const MANAGEMENT_KEY = 'sk-mgmt-schemathesis-0123456789';
const MANAGEMENT_PATHS = '^/v1/(keys|organizations/)';

describe('schemathesis against the management operations, with a management key', () => {
  let gw: TestGateway;
  let run: SchemathesisRun;

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.management_keys.push({ id: 'mgmt-schemathesis', hash: hashApiKey(MANAGEMENT_KEY) });
        config.management_rate_limit = { requests: 1_000_000, window_seconds: 60 };
      },
    });
    run = await runSchemathesis('management', gw.baseUrl, MANAGEMENT_KEY, ['--include-path-regex', MANAGEMENT_PATHS]);
    process.stdout.write(`${summaryLine('management key', run)}\n`);
  }, 300_000);
  afterAll(() => gw?.close());

  it('tests all seven management operations', () => {
    expect(/Selected: (\d+)\/\d+/.exec(run.output)?.[1]).toBe('7');
    expect(/Tested: (\d+)/.exec(run.output)?.[1]).toBe('7');
  });

  it('finds no failure and no error', () => {
    expect({ exitCode: run.code, failures: failuresOf(run) }).toEqual({ exitCode: 0, failures: '' });
  });
});
