// Builds the console into a fresh directory for a test and points the gateway at it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs scripts/build-console.js (as `npm run build` does) and sets GATEWAY_CONSOLE_DIR to its output. */
export function buildConsoleForTest(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'gw-console-')), 'console');
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-console.js'), dir], { stdio: 'pipe' });
  process.env.GATEWAY_CONSOLE_DIR = dir;
  return dir;
}
