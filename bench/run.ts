// `npm run bench`: gateway overhead against a fixed-latency upstream and a bare proxy, the embedded
// store's write path, cost queries over a 1-million-request store, and memory; prints the figures and
// the targets, and writes them to bench/results/<date>-<commit>.json. See docs/benchmarks.md.
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './lib/child';
import { gitCommit } from './lib/git';
import { pinSelf } from './lib/pinning';
import { SETTINGS } from './settings';
import { IDLE_FSYNCS, measureFsync } from './disk/fsync';
import { openBenchContext, runOverhead, type BenchContext } from './overhead/overhead';
import { measureStoreFigures } from './write-path/store-figures';
import { ensureCostStore } from './costs/cost-store';
import { rebuildCostProjection } from './costs/rebuild';
import { prepareDataDir, runCostQueries } from './costs/cost-queries';
import { profileGateway } from './profile/profile-gateway';
import { checkTargets } from './report/targets';
import { printReport } from './report/print';
import type { BenchResults, CostResults, RunMeta } from './report/results';

const CACHE_ROOT = join(REPO_ROOT, '.cache', 'bench');

const log = (line: string) => process.stdout.write(`${line}\n`);

async function costSection(ctx: BenchContext): Promise<CostResults> {
  const { settings } = ctx;
  log(`Cost queries: store of ${settings.costRequests} priced requests (cached under .cache/bench/) ...`);
  const store = await ensureCostStore(CACHE_ROOT, { requests: settings.costRequests, organizations: settings.costOrganizations, days: settings.costDays }, log);
  const dataDir = prepareDataDir(store, ctx.runDir);
  log('  rebuilding the daily cost projection ...');
  const rebuild = await rebuildCostProjection(dataDir);
  pinSelf(ctx.pinning);
  const queries = await runCostQueries(ctx, store, dataDir);
  const bytes = statSync(join(store.dir, 'events.sqlite')).size;
  return { store: { ...store.meta, generatedNow: store.generatedNow, bytes }, rebuild, queries };
}

async function main(): Promise<void> {
  const startedAt = new Date();
  // Read first: the tree may be committed to while the run goes on.
  const commit = gitCommit();
  const ctx = await openBenchContext(startedAt.toISOString().replace(/[:.]/g, '-'), log);
  const { pinning, runDir, mock } = ctx;
  try {
    log('Data disk fsync ...');
    const fsync = await measureFsync(runDir, SETTINGS.fsyncIterations, IDLE_FSYNCS, SETTINGS.coldGapMs);
    log('Gateway overhead ...');
    const overhead = await runOverhead(ctx);
    log('Write path ...');
    pinSelf(pinning, { all: true });
    const store = await measureStoreFigures(runDir, SETTINGS, log);
    const costs = await costSection(ctx);
    const figures = { fsync, overhead, ...store, costs };
    const targets = checkTargets(figures, SETTINGS);
    // The gateway's own cost missed: its CPU profile says where the time goes.
    const gatewayProfile = targets.every((check) => check.area !== 'gateway' || check.met) ? null : await profiled(ctx);
    const meta: RunMeta = {
      startedAt: startedAt.toISOString(),
      gitCommit: commit,
      node: process.version,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      pinning: pinning.description,
      settings: SETTINGS,
      wallSeconds: (Date.now() - startedAt.getTime()) / 1000,
    };
    const results: BenchResults = { meta, ...figures, targets, gatewayProfile };
    log(printReport(results));
    log(`\nresults: ${writeResults(results)}`);
  } finally {
    await mock.stop();
    if (process.env.BENCH_KEEP_RUN_DIR !== '1') rmSync(runDir, { recursive: true, force: true });
  }
}

async function profiled(ctx: BenchContext) {
  log('A gateway target was missed: profiling the gateway under the same load (node --cpu-prof) ...');
  pinSelf(ctx.pinning);
  return profileGateway(ctx);
}

function writeResults(results: BenchResults): string {
  const dir = join(REPO_ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const name = process.env.BENCH_RESULTS_NAME ?? `${results.meta.startedAt.slice(0, 10)}-${results.meta.gitCommit}`;
  const path = join(dir, `${name}.json`);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  return path;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
