// The newcomer's path: `npm start` with nothing configured prints a demo key that still works after a
// restart on the same data directory, and a demo limit that does not end exploring after 60 requests.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayProcess, startGatewayProcess } from '../support/gateway-process';

jest.setTimeout(180_000);

let dataDir: string;
let running: GatewayProcess | undefined;

// Not at a terminal, the banner is a JSON line (docs/observability.md, "Logs") naming the key's file, never
// the key: the key is read from that file, as a script would.
const keyFileIn = (output: string) => /"demoKeyFile":"([^"]+)"/.exec(output)?.[1];
const keyIn = (output: string) => {
  const file = keyFileIn(output);
  return file === undefined ? undefined : readFileSync(file, 'utf8').trim();
};
const costs = (gw: GatewayProcess, key: string) => fetch(`${gw.url}/v1/organization/costs?start_time=0`, { headers: { authorization: `Bearer ${key}` } });
const start = (env: Record<string, string> = {}) => startGatewayProcess({ GATEWAY_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });

beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'gw-demo-'))));
afterEach(async () => {
  await running?.kill('SIGTERM');
  running = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

it('keeps the demo key across a restart on the same data directory, in an owner-only file', async () => {
  running = await start();
  const key = keyIn(running.output())!;
  expect(key).toMatch(/^sk-gw-/);
  expect(keyFileIn(running.output())).toBe(join(dataDir, 'demo-key'));
  // The start-up line ships to log collectors: it names the file, and no line of the output holds the key.
  expect(running.output()).not.toContain(key);
  expect((await costs(running, key)).status).toBe(200);
  expect(statSync(join(dataDir, 'demo-key')).mode & 0o777).toBe(0o600);
  expect(await running.kill('SIGTERM')).toEqual({ code: 0, signal: null });

  running = await start();
  expect(keyIn(running.output())).toBe(key);
  expect((await costs(running, key)).status).toBe(200);
});

it('lets GATEWAY_DEMO_KEY override the stored key (and an ordinary start logs no Node warning)', async () => {
  running = await start({ GATEWAY_DEMO_KEY: 'sk-gw-chosen-by-the-operator-0123456789', LOG_LEVEL: 'warn' });
  expect(running.output()).not.toContain('"context":"node"');
  expect(running.output()).toContain('"demoKeyVariable":"GATEWAY_DEMO_KEY"');
  expect(running.output()).not.toContain('sk-gw-chosen-by-the-operator-0123456789');
  expect((await costs(running, 'sk-gw-chosen-by-the-operator-0123456789')).status).toBe(200);
  expect(() => statSync(join(dataDir, 'demo-key'))).toThrow();
});

it('gives the demo organization 600 requests a minute: the 61st request is admitted', async () => {
  running = await start();
  const key = keyIn(running.output())!;
  expect(running.output()).toContain('"demoOrganization":"org-demo","demoRateLimit":"600 requests per 60 s"');
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < 61; i++) {
    last = await costs(running, key);
    statuses.push(last.status);
  }
  expect(statuses.every((status) => status === 200)).toBe(true);
  expect(last!.headers.get('x-ratelimit-limit')).toBe('600');
  expect(last!.headers.get('x-ratelimit-remaining')).toBe('539');
});
