// `npm test` starts a Kafka broker on the machine's Java with jars Maven fetches; without Java the
// script must say exactly what to install, before it creates or starts anything.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, 'start-broker.sh');
const TOOLS = ['bash', 'sed', 'head', 'mkdir', 'mktemp', 'dirname', 'flock', 'cat', 'rm', 'touch'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'no-java-'));
  for (const tool of TOOLS) {
    const found = ['/usr/bin', '/bin'].map((d) => join(d, tool)).find((path) => existsSync(path));
    if (found) symlinkSync(found, join(dir, tool));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('names the missing Java runtime and the apt-get package, exits 3 and writes no state', () => {
  const stateFile = join(dir, 'broker.env');
  const run = spawnSync(join(dir, 'bash'), [SCRIPT], { env: { PATH: dir, KAFKA_STATE_FILE: stateFile }, encoding: 'utf8' });
  expect(run.status).toBe(3);
  expect(run.stderr).toContain('the Kafka tests need a broker, and starting one needs:');
  expect(run.stderr).toContain('a Java runtime, 11 or newer (17 is what the tests run on): apt-get install openjdk-17-jre-headless');
  expect(existsSync(stateFile)).toBe(false);
});
