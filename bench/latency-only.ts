// `npm run bench:latency`: the latency the gateway adds, alone (about 2 minutes): the upstream directly,
// then the gateway, each paced at the fixed rate (500 req/s), streaming at 100/s and at the slow rate
// (5/s, where every stream finds the gateway idle and waits on a cold durable append), and the added
// p50/p99 against the targets of issue 43. BENCH_DATA_ROOT puts the gateway's data directory (its
// SQLite store) on another file system, e.g. /dev/shm, where fsync costs nothing: the difference between
// the two runs is what the disk's fsync adds (docs/benchmarks.md, "Latency and the disk").
// BENCH_GATEWAY_ENV adds environment to the gateway (`NAME=value` separated by spaces). Printed only.
import { rmSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { writeOverheadConfig } from './gateway-config';
import { chatTargets } from './overhead/chat-requests';
import { measureTarget, type TargetResults } from './overhead/measure-target';
import { openBenchContext, startGatewayProcess } from './overhead/overhead';
import { table } from './report/table';

const log = (line: string) => process.stdout.write(`${line}\n`);
const gatewayEnv = (): Record<string, string> =>
  Object.fromEntries((process.env.BENCH_GATEWAY_ENV ?? '').split(' ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));

type Percentiles = { p50: number; p99: number };

function addedRow(name: string, gateway: Percentiles, direct: Percentiles, target: Partial<Percentiles>): (string | number)[] {
  const p50 = gateway.p50 - direct.p50;
  const p99 = gateway.p99 - direct.p99;
  const verdict = (value: number, limit?: number) => (limit === undefined ? '-' : value <= limit ? `met (<= ${limit})` : `missed (<= ${limit})`);
  return [name, direct.p50, gateway.p50, p50, verdict(p50, target.p50), direct.p99, gateway.p99, p99, verdict(p99, target.p99)];
}

function printAdded(settingsRate: number, slowRate: number, streamRate: number, direct: TargetResults, gateway: TargetResults): void {
  const rows = [
    addedRow(`paced ${settingsRate}/s, whole response`, gateway.fixedRate.latencyMs, direct.fixedRate.latencyMs, { p99: 2.2 }),
    addedRow(`streams ${streamRate}/s, first chunk`, gateway.streaming.firstChunkMs, direct.streaming.firstChunkMs, {}),
    addedRow(`streams ${slowRate}/s, first chunk`, gateway.slowStreaming!.firstChunkMs, direct.slowStreaming!.firstChunkMs, { p50: 1.5 }),
  ];
  log(table('Latency added by the gateway (ms)', ['run', 'direct p50', 'gateway p50', 'added p50', 'target', 'direct p99', 'gateway p99', 'added p99', 'target'], rows));
  log(`host steal during the gateway's paced run (ms by core): ${JSON.stringify(gateway.hostStealMs.fixedRate)}; streaming: ${JSON.stringify(gateway.hostStealMs.streaming)}`);
}

async function main(): Promise<void> {
  const ctx = await openBenchContext(`latency-${Date.now()}`, log);
  const dataRoot = process.env.BENCH_DATA_ROOT ? mkdtempSync(join(process.env.BENCH_DATA_ROOT, 'gateway-bench-')) : ctx.runDir;
  log(`gateway data directory under ${dataRoot}`);
  try {
    const config = writeOverheadConfig(join(ctx.runDir, 'latency-config'));
    log('  upstream directly ...');
    const direct = await measureTarget(chatTargets(ctx.mock.url), null, ctx.settings, true);
    const gateway = await startGatewayProcess(ctx, 'gateway', join(dataRoot, 'latency-data'), config.path, [], gatewayEnv());
    try {
      log('  gateway ...');
      const results = await measureTarget(chatTargets(gateway.url, config.apiKey), gateway.pid, ctx.settings, true);
      printAdded(ctx.settings.fixedRate, ctx.settings.slowStreamRate, ctx.settings.streamRate, direct, results);
    } finally {
      await gateway.stop();
    }
  } finally {
    await ctx.mock.stop();
    if (dataRoot !== ctx.runDir) rmSync(dataRoot, { recursive: true, force: true });
    if (process.env.BENCH_KEEP_RUN_DIR !== '1') rmSync(ctx.runDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
