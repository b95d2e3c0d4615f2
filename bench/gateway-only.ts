// `npm run bench:gateway`: the quick loop for work on the gateway's own cost. Bare proxy and gateway:
// closed loop (CPU per request, per thread), the paced fixed rate and streaming time to first chunk
// (the Nest relay of servers/nest-relay.ts: closed loop only), then each in a closed loop of streamed
// completions of 20 chunks (CPU per stream), and the gateway's CPU as a ratio to the bare proxy's and the
// relay's (issue 43's targets: at most 3 x and 1.5 x),
// the gateway twice, with its Prometheus metrics on (the default) and off (GATEWAY_METRICS=off), traces off in both,
// then a CPU profile of the gateway under closed-loop load (V8's, and Linux perf's of every thread where
// perf can sample); printed only, nothing is written to bench/results. BENCH_GATEWAY_NODE_FLAGS adds node
// flags to the gateway (e.g. to try V8 heap settings); BENCH_DEPLOYMENTS=N serves aria from N deployments
// of the mock (default: the example catalog's two); BENCH_IDEMPOTENCY_KEYS=1 sends every gateway request with
// a new Idempotency-Key.
// `npm run bench` remains the full run.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad } from './lib/load';
import { runPaced } from './lib/paced';
import { cpuMicros, cpuMicrosByThread, memoryMiB } from './lib/proc';
import { SETTINGS } from './settings';
import { writeOverheadConfig } from './gateway-config';
import { chatTargets, type ChatTargets } from './overhead/chat-requests';
import { openBenchContext, startBareProxy, startGatewayProcess, startNestRelay, type BenchContext } from './overhead/overhead';
import { profileGateway } from './profile/profile-gateway';
import { microsPerRequest, perfProfileGateway, perfUnavailableReason } from './profile/perf-profile';
import { table } from './report/table';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Per-thread CPU µs per request, grouped by thread name (main, the append worker, V8's helpers, libuv). */
function threadRows(pid: number, before: Map<string, number>, after: Map<string, number>, completed: number): (string | number)[][] {
  const byName = new Map<string, number>();
  for (const [thread, micros] of after) {
    const tid = thread === 'main' ? String(pid) : thread.replace('thread ', '');
    let name = thread;
    try {
      name = thread === 'main' ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      // The thread ended.
    }
    byName.set(`${name} ${tid}`, (byName.get(`${name} ${tid}`) ?? 0) + micros - (before.get(thread) ?? 0));
  }
  return [...byName].sort((a, b) => b[1] - a[1]).map(([name, micros]) => [name, micros / completed]);
}

async function closedLoopRow(targets: ChatTargets, pid: number): Promise<(string | number)[]> {
  const load = { connections: SETTINGS.connections };
  await runLoad(targets.completion, { ...load, durationS: SETTINGS.warmupS });
  const threads = cpuMicrosByThread(pid);
  const before = cpuMicros(pid);
  const run = await runLoad(targets.completion, { ...load, durationS: SETTINGS.durationS });
  const completed = run.ok + run.failed;
  const after = cpuMicrosByThread(pid);
  const main = (after.get('main') ?? 0) - (threads.get('main') ?? 0);
  log(table(`Threads of pid ${pid}`, ['thread', 'CPU µs/req'], threadRows(pid, threads, after, completed)));
  return [run.requestsPerSecond, run.failed, run.latencyMs.p50, run.latencyMs.p99, (cpuMicros(pid) - before) / completed, main / completed];
}

/** CPU µs per streamed completion of 20 chunks, read to `data: [DONE]`, closed loop (after a warm-up). */
async function cpuPerStream(targets: ChatTargets, pid: number): Promise<(string | number)[]> {
  const load = { connections: SETTINGS.connections };
  await runLoad(targets.streamOf20, { ...load, durationS: SETTINGS.warmupS });
  const before = cpuMicros(pid);
  const run = await runLoad(targets.streamOf20, { ...load, durationS: SETTINGS.durationS });
  return [run.requestsPerSecond, run.failed, run.latencyMs.p50, (cpuMicros(pid) - before) / (run.ok + run.failed)];
}

function ratioRows(bare: number, relay: number, gateway: number): (string | number)[] {
  return [bare, relay, gateway, (gateway / bare).toFixed(2), (gateway / relay).toFixed(2)];
}

async function cpuPerRequest(targets: ChatTargets, pid: number): Promise<(string | number)[]> {
  const closedLoop = await closedLoopRow(targets, pid);
  const paced = await runPaced(targets.completion, { ratePerSecond: SETTINGS.fixedRate, connections: SETTINGS.connections, durationS: SETTINGS.durationS });
  const stream = await runPaced(targets.stream, { ratePerSecond: SETTINGS.streamRate, connections: SETTINGS.connections, durationS: SETTINGS.durationS, expectStreamEnd: true });
  return [...closedLoop, paced.latencyMs.p50, paced.latencyMs.p99, stream.firstChunkMs.p50, stream.firstChunkMs.p99, memoryMiB(pid, 'VmHWM')];
}

/** Traces off in every variant (OpenTelemetry's standard switches), so only the metrics differ. */
const TRACES_OFF = { OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'none' };

/** The gateway's row per request, and per stream of 20 chunks when `streams` (the metrics-off variant prints none). */
async function gatewayVariantRows(ctx: BenchContext, name: string, dataDir: string, config: { path: string; apiKey: string }, nodeFlags: string[], env: Record<string, string>, streams: boolean): Promise<(string | number)[][]> {
  const gateway = await startGatewayProcess(ctx, name, dataDir, config.path, nodeFlags, { ...TRACES_OFF, ...env });
  const targets = chatTargets(gateway.url, config.apiKey, process.env.BENCH_IDEMPOTENCY_KEYS === '1');
  try {
    const perRequest = await cpuPerRequest(targets, gateway.pid);
    return streams ? [perRequest, await cpuPerStream(targets, gateway.pid)] : [perRequest];
  } finally {
    await gateway.stop();
  }
}

async function printPerfProfile(ctx: BenchContext): Promise<void> {
  const unavailable = perfUnavailableReason();
  if (unavailable) {
    log(`\nperf profile skipped: ${unavailable}`);
    return;
  }
  const { pid, completed, threads, procMicrosPerRequest } = await perfProfileGateway(ctx);
  const name = (tid: number) => (tid === pid ? 'main' : `thread ${tid}`);
  const byThread = threads.map((t) => [name(t.tid), microsPerRequest(t.samples, completed)]);
  log(table('Gateway CPU by thread (perf, on-CPU samples only)', ['thread', 'CPU µs/req'], [...byThread, ['all, from /proc', procMicrosPerRequest]]));
  for (const thread of threads.slice(0, 2)) {
    const rows = thread.areas.slice(0, 20).map(([area, samples]) => [area, microsPerRequest(samples, completed)]);
    log(table(`... ${name(thread.tid)} by area (native work charged to the JS that called it)`, ['area', 'CPU µs/req'], rows));
    const top = (entries: [string, number][]) => entries.slice(0, Number(process.env.BENCH_PERF_TOP ?? 25)).map(([symbol, samples]) => [symbol.slice(0, 100), microsPerRequest(samples, completed)]);
    log(table(`... ${name(thread.tid)} by JavaScript function (native work charged to it)`, ['function', 'CPU µs/req'], top(thread.functions)));
    log(table(`... ${name(thread.tid)} by leaf frame (where the CPU was)`, ['symbol', 'CPU µs/req'], top(thread.leaves)));
  }
}

async function main(): Promise<void> {
  const ctx = await openBenchContext(`gateway-${Date.now()}`, log);
  const { runDir, mock } = ctx;
  try {
    if (process.env.BENCH_PERF_ONLY === '1') return await printPerfProfile(ctx);
    const proxy = await startBareProxy(ctx);
    const proxyRow = await cpuPerRequest(chatTargets(proxy.url), proxy.pid);
    const proxyStreams = await cpuPerStream(chatTargets(proxy.url), proxy.pid).finally(() => proxy.stop());
    const relay = await startNestRelay(ctx);
    const relayRow = await closedLoopRow(chatTargets(relay.url), relay.pid);
    const relayStreams = await cpuPerStream(chatTargets(relay.url), relay.pid).finally(() => relay.stop());
    const config = writeOverheadConfig(join(runDir, 'overhead-config'));
    const nodeFlags = (process.env.BENCH_GATEWAY_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const [gatewayRow, gatewayStreams] = await gatewayVariantRows(ctx, 'gateway', join(runDir, 'overhead-data'), config, nodeFlags, { GATEWAY_METRICS: 'on' }, true);
    const [metricsOffRow] = await gatewayVariantRows(ctx, 'gateway, metrics off', join(runDir, 'metrics-off-data'), config, nodeFlags, { GATEWAY_METRICS: 'off' }, false);
    log(table('Closed loop', ['target', 'req/s', 'failed', 'p50 ms', 'p99 ms', 'CPU µs/req', 'main µs/req', `${SETTINGS.fixedRate}/s p50`, 'p99', `stream ${SETTINGS.streamRate}/s TTFC p50`, 'p99', 'peak RSS MiB'], [['bare proxy', ...proxyRow], ['Nest relay', ...relayRow, '-', '-', '-', '-', '-'], ['gateway (metrics on)', ...gatewayRow], ['gateway (metrics off)', ...metricsOffRow]]));
    log(table('Closed loop, streamed completions of 20 chunks', ['target', 'streams/s', 'failed', 'p50 ms', 'CPU µs/stream'], [['bare proxy', ...proxyStreams], ['Nest relay', ...relayStreams], ['gateway (metrics on)', ...gatewayStreams]]));
    const perRequest = ratioRows(proxyRow[4] as number, relayRow[4] as number, gatewayRow[4] as number);
    const perStream = ratioRows(proxyStreams[3] as number, relayStreams[3] as number, gatewayStreams[3] as number);
    log(table('Gateway CPU against the bare proxy and the Nest relay (targets: 3 x and 1.5 x)', ['closed loop', 'bare µs', 'relay µs', 'gateway µs', 'gateway / bare', 'gateway / relay'], [['per request', ...perRequest], ['per stream of 20 chunks', ...perStream]]));
    log(`metrics on - off: ${((gatewayRow[4] as number) - (metricsOffRow[4] as number)).toFixed(1)} CPU µs/req, ${((gatewayRow[5] as number) - (metricsOffRow[5] as number)).toFixed(1)} main-thread µs/req (one run each: noisy on a shared machine)`);
    for (const summary of await profileGateway(ctx)) {
      log(table(`Gateway CPU profile (${summary.busyMs.toFixed(0)} ms busy): self time`, ['function', 'ms', '%'], summary.topFunctions.map((e) => [e.name, e.ms, e.percent])));
      log(table('... by area', ['area', 'ms', '%'], summary.areas.map((e) => [e.name, e.ms, e.percent])));
      log(table('... gateway functions, inclusive', ['function', 'ms', '%'], summary.topOwnInclusive.map((e) => [e.name, e.ms, e.percent])));
    }
    await printPerfProfile(ctx);
  } finally {
    await mock.stop();
    if (process.env.BENCH_KEEP_RUN_DIR !== '1') rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
