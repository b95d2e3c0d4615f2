// The image, `npm start` and the benchmark must launch node the same way (docs/operations.md, "Node flags").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deployedNodeFlags, nodeFlagsOf } from '../../bench/lib/server-node-flags';

const ROOT = join(__dirname, '..', '..');

function dockerfileCommand(): string[] {
  const line = readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8').split('\n').find((text) => text.startsWith('CMD '));
  return JSON.parse(line!.slice('CMD '.length)) as string[];
}

describe('node launch flags', () => {
  it('sizes V8 helper threads to the cores the process may use', () => {
    expect(deployedNodeFlags()).toContain('--v8-pool-size=0');
  });

  it('turns off allocation-site pretenuring, whose decisions after an idle spell raised peak memory by half', () => {
    expect(deployedNodeFlags()).toContain('--no-allocation-site-pretenuring');
  });

  it('are the same in the Dockerfile as in npm start', () => {
    expect(nodeFlagsOf(dockerfileCommand())).toEqual(deployedNodeFlags());
  });

  it('reads the options between node and the entry point', () => {
    expect(nodeFlagsOf(['node', '--a', '--b=1', 'dist/main.js', '--not-mine'])).toEqual(['--a', '--b=1']);
    expect(nodeFlagsOf(['node', 'dist/main.js'])).toEqual([]);
    expect(() => nodeFlagsOf(['npm', 'start'])).toThrow('not a node launch command');
    expect(() => nodeFlagsOf(['node', '--a'])).toThrow('no entry point');
  });
});
