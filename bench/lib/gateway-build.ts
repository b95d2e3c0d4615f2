// Compiles the gateway as `npm run build` would (tsconfig.build.json) into a benchmark-owned folder,
// so the gateway under test runs as deployed (`node dist/src/main.js`): no TypeScript compiler in its
// heap inflating its RSS, and dist/ (the project's own build output) left alone.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './child';

export const GATEWAY_BUILD_DIR = join('.cache', 'bench', 'gateway-dist');

/** Builds (incrementally) and returns the entry point relative to the repository root. */
export function buildGateway(): string {
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', GATEWAY_BUILD_DIR, '--tsBuildInfoFile', join(GATEWAY_BUILD_DIR, 'build.tsbuildinfo')], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  return join(GATEWAY_BUILD_DIR, 'src', 'main.js');
}
