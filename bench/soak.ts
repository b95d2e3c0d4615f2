// `npm run bench:soak`: memory and event-loop lag of the gateway under a mixed open-loop load (issue
// 43): BENCH_SOAK_RATE requests/s for BENCH_SOAK_S, chat (half streamed), speech and transcription,
// against the project's upstream simulator (the bench's mock upstream only serves chat). Every
// BENCH_SOAK_WINDOW_S it prints the resident memory of the gateway and its ffmpeg children, the
// gateway's event-loop lag p99 (its /metrics) and CPU; then a summary. Printed only, nothing is
// written to bench/results (as bench:gateway).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startService, type ServiceProcess } from './lib/child';
import { buildGateway } from './lib/gateway-build';
import { pinSelf, planPinning } from './lib/pinning';
import { memoryMiB, watchCores, watchSteal } from './lib/proc';
import { SETTINGS } from './settings';
import { writeOverheadConfig } from './gateway-config';
import { startGatewayProcess, type BenchContext } from './overhead/overhead';
import { table } from './report/table';
import { mixSchedule, soakShares, type SoakKind } from './soak/mix';
import { runMixedLoad } from './soak/mixed-load';
import { soakRequests } from './soak/requests';
import { SOAK_SETTINGS as S } from './soak/soak-settings';
import { SoakTally } from './soak/tally';
import { scrapeRuntimeFigures } from './soak/gateway-metrics';
import { SoakWindows, WINDOW_COLUMNS, windowRow, type SoakWindow } from './soak/windows';

const log = (line: string) => process.stdout.write(`${line}\n`);
const KINDS: SoakKind[] = ['chat', 'chat stream', 'speech', 'transcription'];

/** As openBenchContext, with the simulator (every endpoint) where the mock upstream would be. */
async function openSoakContext(): Promise<BenchContext> {
  const pinning = planPinning();
  log(`pinning: ${pinning.description}`);
  pinSelf(pinning);
  log('Building the gateway (tsconfig.build.json) ...');
  const gatewayScript = buildGateway();
  const runDir = join(REPO_ROOT, '.cache', 'bench', 'runs', `soak-${Date.now()}`);
  const simulator = await startService(pinning, { name: 'simulator', script: 'src/simulator/main.ts', cpu: pinning.loadCpu, env: { PORT_SIMULATOR: '0' } });
  return { pinning, settings: SETTINGS, runDir, mock: simulator, gatewayScript, log };
}

const liveLine = (w: SoakWindow) =>
  `  ${w.endS.toFixed(0).padStart(4)} s  answers ${w.answers}  non-2xx ${w.non2xx}  tree ${w.treeMiB.toFixed(0)} MiB (gateway ${w.gatewayMiB.toFixed(0)}, children ${w.childrenMiB.toFixed(0)} x${w.children})  lag p99 ${w.runtime?.lagP99Ms.toFixed(1) ?? '-'} ms`;

async function soak(ctx: BenchContext, gateway: ServiceProcess, apiKey: string): Promise<void> {
  const tally = new SoakTally();
  const windows = new SoakWindows(gateway, S.windowS, (w) => log(liveLine(w)));
  await scrapeRuntimeFigures(gateway.url); // resets the lag histogram: the first window starts with the load
  const cores = watchCores();
  const steal = watchSteal();
  log(`\nSoak: ${S.rate} req/s for ${S.durationS} s (speech ${S.speechShare}, transcription ${S.transcriptionShare}, the rest chat, half streamed), ${S.connections} connections`);
  windows.start();
  const load = await runMixedLoad(gateway.url, {
    ratePerSecond: S.rate,
    durationS: S.durationS,
    connections: S.connections,
    kindOf: mixSchedule(soakShares(S.speechShare, S.transcriptionShare)),
    requests: await soakRequests(apiKey),
    onAnswer: (answer) => {
      tally.add(answer);
      windows.count(answer);
    },
  });
  await windows.stop();
  const [busy, stolen] = [cores(), steal()];
  printSummary(windows.windows, tally, load, gateway.pid, ctx);
  log(`cores busy: ${Object.entries(busy).map(([core, share]) => `cpu${core} ${(share * 100).toFixed(0)}%`).join(', ')}; steal ${Object.entries(stolen).map(([core, ms]) => `cpu${core} ${ms.toFixed(0)} ms`).join(', ')}`);
}

function printSummary(windows: SoakWindow[], tally: SoakTally, load: Awaited<ReturnType<typeof runMixedLoad>>, pid: number, ctx: BenchContext): void {
  log(table(`Windows of ${S.windowS} s (memory: largest of the samples every 250 ms; lag: the gateway's nodejs_eventloop_lag_p99_seconds)`, WINDOW_COLUMNS, windows.map(windowRow)));
  log(table('Answers', ['kind', 'status', 'count'], tally.statusRows()));
  log(table('Latency of 2xx answers, ms', ['kind', 'count', 'p50', 'p99', 'max'], KINDS.map((kind) => {
    const l = tally.latencyOf(kind);
    return [kind, l.count, l.p50, l.p99, l.max];
  })));
  const reasons = tally.reasonRows();
  if (reasons.length > 0) log(table('Non-2xx answers and errors (distinct reasons, first 20)', ['reason', 'count'], reasons));
  const peak = (pick: (w: SoakWindow) => number) => Math.max(...windows.map(pick));
  const lags = windows.map((w) => w.runtime?.lagP99Ms ?? NaN).filter((lag) => !Number.isNaN(lag));
  log(table('Summary', ['figure', 'value'], [
    ['peak RSS, gateway + children, MiB', peak((w) => w.treeMiB)],
    ['peak RSS, gateway alone (samples), MiB', peak((w) => w.gatewayMiB)],
    ['peak RSS, gateway alone (VmHWM), MiB', memoryMiB(pid, 'VmHWM')],
    ['peak RSS, children, MiB', peak((w) => w.childrenMiB)],
    ['most children at once', peak((w) => w.children)],
    ['max window event-loop lag p99, ms', lags.length ? Math.max(...lags) : NaN],
    ['sent', load.sent],
    ['offered rate, req/s', load.sent / load.sendingS],
    ['answered 2xx per second of sending', tally.ok / load.sendingS],
    ['answers not 2xx (errors included)', tally.answered - tally.ok],
    ['unanswered at the end of the drain', load.unanswered],
  ]));
  log(`pinning: ${ctx.pinning.description}`);
}

async function main(): Promise<void> {
  const ctx = await openSoakContext();
  const config = writeOverheadConfig(join(ctx.runDir, 'soak-config'));
  const nodeFlags = (process.env.BENCH_GATEWAY_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  try {
    const gateway = await startGatewayProcess(ctx, 'gateway', join(ctx.runDir, 'soak-data'), config.path, nodeFlags, { OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'none', GATEWAY_METRICS: 'on' });
    await soak(ctx, gateway, config.apiKey).finally(() => gateway.stop());
  } finally {
    await ctx.mock.stop();
    if (process.env.BENCH_KEEP_RUN_DIR !== '1') rmSync(ctx.runDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
