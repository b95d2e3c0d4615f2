// The commit a benchmark run measured, for its results file.
import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from './child';

export function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
