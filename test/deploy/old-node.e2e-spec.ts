// `node src/main.ts` on a Node older than package.json "engines": one line naming both versions and
// exit 1, instead of the segfault the SQLite addon gave. Runs the machine's own node when it is older
// (here /usr/bin/node, v20), through ts-node like `npm run` does, so no build is needed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUIRED_NODE_MAJOR } from '../../src/node-version-check';

const ROOT = join(__dirname, '..', '..');

function oldNode(): { path: string; version: string } | null {
  for (const path of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(path)) continue;
    const version = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (Number(version.split('.')[0]) < REQUIRED_NODE_MAJOR) return { path, version };
  }
  return null;
}

const old = oldNode();
const describeWithOldNode = old ? describe : describe.skip;
if (!old) console.info(`no Node older than ${REQUIRED_NODE_MAJOR} on this machine: old-node start-up test skipped`);

describeWithOldNode('the gateway started on a Node older than it needs', () => {
  it('prints one line naming both versions and exits 1, before anything native loads', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-old-node-'));
    try {
      const run = spawnSync(old!.path, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
        cwd: ROOT,
        env: { PATH: '/usr/bin:/bin', GATEWAY_DATA_DIR: dataDir, PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      console.log(`Node ${old!.version}: exit ${run.status}, signal ${run.signal}, stderr ${JSON.stringify(run.stderr)}`);
      expect([run.status, run.signal]).toEqual([1, null]);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`inference gateway needs Node.js >= ${REQUIRED_NODE_MAJOR} (this is ${old!.version}); ${run.stderr.split('); ')[1]}`);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('run scripts/setup.sh');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
