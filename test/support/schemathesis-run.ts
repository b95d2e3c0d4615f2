// Runs scripts/schemathesis.sh for the openapi tests with its whole report sent to a file under .cache/:
// schemathesis ends with a pytest-style banner (`=== 2 warnings in 36.70s ===`) that CI would read as the
// closing line of a run that executed nothing. The test prints one line of ours instead (`summaryLine`).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface SchemathesisRun {
  code: number | null;
  /** The whole report, as schemathesis printed it. */
  output: string;
  /** Where the report was written, relative to the repository root. */
  reportPath: string;
}

/** Async on purpose: the gateway under test answers from this process's event loop. */
export function runSchemathesis(name: string, baseUrl: string, apiKey: string, extraArgs: string[] = []): Promise<SchemathesisRun> {
  const reportPath = join('.cache', 'schemathesis', `${name}.txt`);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['scripts/schemathesis.sh', baseUrl, apiKey, ...extraArgs], {
      cwd: ROOT,
      env: { ...process.env, SCHEMATHESIS_REPORT: join(ROOT, reportPath) },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output: readReport(join(ROOT, reportPath)), reportPath }));
  });
}

function readReport(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export interface SchemathesisCounts {
  /** Operations selected out of the document's. */
  selected: number | null;
  total: number | null;
  tested: number | null;
  /** Operations with a failure: one `___ METHOD /path ___` section each in the FAILURES part. */
  failures: number;
}

export function countsOf(run: Pick<SchemathesisRun, 'code' | 'output'>): SchemathesisCounts {
  const selected = /Selected: (\d+)\/(\d+)/.exec(run.output);
  const tested = /Tested: (\d+)/.exec(run.output);
  const sections = run.output.split('\n').filter((line) => /^_{3,} \S.* _{3,}$/.test(line.trim())).length;
  return {
    selected: selected ? Number(selected[1]) : null,
    total: selected ? Number(selected[2]) : null,
    tested: tested ? Number(tested[1]) : null,
    failures: run.code === 0 ? 0 : Math.max(1, sections),
  };
}

/** The one line a test prints about the run. */
export function summaryLine(label: string, run: SchemathesisRun): string {
  const counts = countsOf(run);
  return `schemathesis (${label}): ${counts.tested ?? '?'} operations, ${counts.failures} failures, exit ${run.code}, report in ${run.reportPath}`;
}

/** The FAILURES part of the report, for a failing assertion, without schemathesis's `===` banners. */
export function failuresOf(run: SchemathesisRun): string {
  if (run.code === 0) return '';
  const start = run.output.indexOf('= FAILURES =');
  const end = run.output.indexOf('= SUMMARY =');
  const part = start >= 0 ? run.output.slice(start, end > start ? end : undefined) : run.output.slice(-4000);
  return `${part.replace(/={3,}/g, '---')}\n(full report: ${run.reportPath})`;
}
