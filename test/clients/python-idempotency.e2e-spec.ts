// The official Python `openai` SDK sends an Idempotency-Key with `extra_headers` (docs/idempotency.md):
// the second identical call is the first one's answer, replayed, and the key carries one charge.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestGateway, TestGateway } from '../support/test-gateway';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const VENV_TIMEOUT_MS = 360_000;

describe('official Python openai SDK: Idempotency-Key through extra_headers', () => {
  let gw: TestGateway;
  let python: string;
  beforeAll(async () => {
    const { stdout } = await run('bash', [join(ROOT, 'scripts/python-clients.sh')], { timeout: VENV_TIMEOUT_MS });
    python = stdout.trim().split('\n').pop()!;
    gw = await startTestGateway();
  }, VENV_TIMEOUT_MS + 60_000);
  afterAll(() => gw?.close());

  it('replays the second call byte for byte, uncharged', async () => {
    const { stdout } = await run(python, [join(ROOT, 'test/clients/python/idempotency_check.py'), `${gw.baseUrl}/v1`, gw.apiKey], { timeout: 120_000 });
    const attempts = JSON.parse(stdout.split('\n').find((line) => line.startsWith('RESULT '))!.slice('RESULT '.length)) as { request_id: string; replayed: string | null; body: string }[];
    expect(attempts[0].replayed).toBeNull();
    expect(attempts[1]).toEqual({ request_id: attempts[0].request_id, replayed: 'true', body: attempts[0].body });
    const charges = (await gw.events('CostPriced')).filter((event) => (event.data as { requestId: string }).requestId === attempts[0].request_id);
    expect(charges).toHaveLength(1);
    expect(await gw.events('CostPriced')).toHaveLength(1);
  }, 180_000);
});
