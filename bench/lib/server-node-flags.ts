// The node flags the gateway is deployed with, read from `npm start` so the benchmark measures the
// gateway as it runs in production. The bare proxy gets the same flags: they are process settings
// any Node server on this machine would use, not part of the gateway's work.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './child';

/** The options between `node` and the entry point of a launch command (`node --a --b dist/src/main.js`). */
export function nodeFlagsOf(command: readonly string[]): string[] {
  if (command[0] !== 'node') throw new Error(`not a node launch command: ${command.join(' ')}`);
  const entry = command.findIndex((word, index) => index > 0 && !word.startsWith('-'));
  if (entry === -1) throw new Error(`no entry point in: ${command.join(' ')}`);
  return command.slice(1, entry);
}

/** The flags of package.json's `start` script. */
export function deployedNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return nodeFlagsOf(manifest.scripts.start.trim().split(/\s+/));
}
