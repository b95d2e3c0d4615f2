// `npm run bench:store`: the embedded store's figures alone, in about a minute, to compare write-path
// variants: the disk's fsync, the cold single-event append and the WAL pages it writes, warm appends
// at the fixed rate, 1/10/100 concurrent writers and bytes on disk per billed request, with the
// store's targets. BENCH_STORE_JSON=<path> also writes them as JSON; BENCH_STORE_ROWS=plain creates the
// stores as before the compact rows (the old write path, for an A/B), and GATEWAY_STORE_INLINE_COMMITS=off
// keeps every commit in the append worker. BENCH_STORE_POSTGRES_URL=<libpq URL of a server where the
// user may create databases> adds the PostgreSQL store's figures beside them (postgres-figures.ts).
// Knobs: bench/settings.ts.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { REPO_ROOT } from './lib/child';
import { gitCommit } from './lib/git';
import { pinSelf, planPinning } from './lib/pinning';
import { SETTINGS } from './settings';
import { IDLE_FSYNCS, measureFsync } from './disk/fsync';
import { measureStoreFigures, type StoreFiguresWithFsync } from './write-path/store-figures';
import { storeTargets } from './report/targets';
import { STORE_ROWS } from './write-path/gateway-appends';
import { readInlineCommits } from '../src/event-store/sqlite/store-env';
import { storeFigureTables, targetsTable } from './report/print-store';
import { table, type Cell } from './report/table';
import type { TargetCheck } from './report/results';
import { measurePostgresFigures, postgresFiguresTable, type PostgresFigures } from './write-path/postgres-figures';

const log = (line: string) => process.stdout.write(`${line}\n`);

export interface StoreBenchResults extends StoreFiguresWithFsync {
  meta: { startedAt: string; gitCommit: string; node: string; cpuModel: string; cores: number; pinning: string; settings: typeof SETTINGS; wallSeconds: number; storeRows: string; inlineCommits: boolean };
  targets: TargetCheck[];
  postgres?: PostgresFigures;
}

/** One line per figure, to set two variants' outputs side by side. */
function summaryTable(figures: StoreFiguresWithFsync): string {
  const { fsync, coldAppend, coldAppendRunning, pacedAppends, writePath, bytesPerRequest } = figures;
  const pages = coldAppend.pagesPerEvent;
  const rows: Cell[][] = [
    ['fsync (4 KiB write + fsync), ms', fsync.latencyMs.p50, fsync.latencyMs.p99, 'back to back'],
    [`fsync after ${fsync.idle.gapMs} ms idle, ms`, fsync.idle.latencyMs.p50, fsync.idle.latencyMs.p99, 'as the cold appends'],
    ['cold single-event append, new store, ms', coldAppend.latencyMs.p50, coldAppend.latencyMs.p99, `max ${coldAppend.latencyMs.max.toFixed(2)}`],
    ['the same, running store (WAL restarted), ms', coldAppendRunning.latencyMs.p50, coldAppendRunning.latencyMs.p99, `max ${coldAppendRunning.latencyMs.max.toFixed(2)}`],
    ['WAL pages per single-event commit', pages?.mean ?? '-', '-', pages ? `max ${pages.max}` : 'no -shm'],
    [`append at ${pacedAppends.ratePerSecond} requests/s, ms`, pacedAppends.latencyMs.p50, pacedAppends.latencyMs.p99, `admission p99 ${pacedAppends.admissionMs.p99.toFixed(2)}, billing p99 ${pacedAppends.billingMs.p99.toFixed(2)}`],
    ...writePath.map((run): Cell[] => [`${run.writers} writer(s): events/s`, run.eventsPerSecond, '-', `append p50 ${run.latencyMs.p50.toFixed(2)} ms, p99 ${run.latencyMs.p99.toFixed(2)} ms`]),
    ['bytes on disk per billed request', bytesPerRequest.bytesPerRequest, '-', `${bytesPerRequest.requests} requests`],
  ];
  return table('Store figures', ['figure', 'p50 / value', 'p99', 'note'], rows);
}

function writeJson(path: string, results: StoreBenchResults): string {
  const target = resolve(path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(`${target}.tmp`, target);
  return target;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  // Read first: the tree may be committed to while the run goes on.
  const commit = gitCommit();
  const pinning = planPinning();
  log(`pinning: ${pinning.description}`);
  const runDir = join(REPO_ROOT, '.cache', 'bench', 'store-runs', startedAt.toISOString().replace(/[:.]/g, '-'));
  mkdirSync(runDir, { recursive: true });
  try {
    log('Data disk fsync ...');
    pinSelf(pinning);
    const fsync = await measureFsync(runDir, SETTINGS.fsyncIterations, IDLE_FSYNCS, SETTINGS.coldGapMs);
    log('Write path ...');
    pinSelf(pinning, { all: true });
    const figures: StoreFiguresWithFsync = { fsync, ...(await measureStoreFigures(runDir, SETTINGS, log)) };
    const postgresUrl = process.env.BENCH_STORE_POSTGRES_URL;
    const postgres = postgresUrl ? await measurePostgresFigures(postgresUrl, SETTINGS, log) : undefined;
    const targets = storeTargets(figures);
    const meta = { startedAt: startedAt.toISOString(), gitCommit: commit, node: process.version, cpuModel: cpus()[0]?.model ?? 'unknown', cores: cpus().length, pinning: pinning.description, settings: SETTINGS, wallSeconds: (Date.now() - startedAt.getTime()) / 1000, storeRows: STORE_ROWS, inlineCommits: readInlineCommits() };
    log(`\nnpm run bench:store — ${meta.startedAt}, commit ${meta.gitCommit}, ${meta.cpuModel} x${meta.cores}, node ${meta.node}, ${meta.storeRows} rows, inline commits ${meta.inlineCommits ? 'on' : 'off'}, ${meta.wallSeconds.toFixed(0)} s`);
    log([...storeFigureTables(figures), summaryTable(figures), ...(postgres ? [postgresFiguresTable(postgres)] : []), targetsTable(targets)].join('\n'));
    const jsonPath = process.env.BENCH_STORE_JSON;
    if (jsonPath) log(`\nresults: ${writeJson(jsonPath, { meta, ...figures, targets, ...(postgres ? { postgres } : {}) })}`);
  } finally {
    if (process.env.BENCH_KEEP_RUN_DIR !== '1') rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
