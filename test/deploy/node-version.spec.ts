// The image runs the Node release the scripts fetch and the engines field asks for, so a newcomer's
// machine, CI and the container never drift apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIRED_NODE_MAJOR } from '../../src/node-version-check';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const fetched = /^GATEWAY_NODE_VERSION=(\d+\.\d+\.\d+)$/m.exec(read('scripts/node-runtime.sh'))![1];

it('pins both image stages to the Node release scripts/node-runtime.sh fetches, on Debian bookworm', () => {
  const stages = [...read('deploy/Dockerfile').matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
  expect(stages).toEqual([`node:${fetched}-bookworm`, `node:${fetched}-bookworm-slim`]);
});

it('asks for that release line in package.json engines', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  expect(engines).toBe(`>=${fetched.split('.')[0]}`);
});

it('checks that release line at start-up, before any native addon loads (src/node-version-check.ts)', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  expect(`>=${REQUIRED_NODE_MAJOR}`).toBe(engines);
  expect(read('src/main.ts').match(/^import .*$/m)![0]).toBe("import './node-version-check';");
});
