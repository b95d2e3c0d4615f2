// The console report: every figure of the run, then the targets, then the profile when one was taken.
import type { OverheadResults } from '../overhead/overhead';
import type { TargetResults, ThroughputRun } from '../overhead/measure-target';
import type { BenchResults } from './results';
import { table, type Cell } from './table';
import { storeFigureTables, targetsTable } from './print-store';

const coresBusy = (busy: Record<string, number>) => Object.entries(busy).map(([core, share]) => `cpu${core} ${(100 * share).toFixed(0)}%`).join(' ');
const stolen = (stealMs: Record<string, number>) => Object.entries(stealMs).map(([core, ms]) => `cpu${core} ${ms.toFixed(0)}`).join(' ');

/** A target that cannot sustain the fixed rate, paced at half its capacity (added: against the direct fixed-rate run). */
function halfCapacityRows(runs: [string, TargetResults][], direct: TargetResults): Cell[][] {
  return runs.flatMap(([name, run]) => {
    const half = run.halfCapacity;
    if (!half) return [];
    return [[`${name} at ${half.ratePerSecond} req/s (half its capacity)`, half.latencyMs.p50, half.latencyMs.p90, half.latencyMs.p99,
      half.latencyMs.p99 - direct.fixedRate.latencyMs.p99, half.sendLagMs.p99, '-', '-', '-', '-', '-', half.failed]];
  });
}

/** Where the gateway's CPU per request goes between the bare proxy, the stack alone and the gateway. */
function stackShare({ bareProxy, nestRelay, gateway }: OverheadResults): string {
  const cpu = (run: ThroughputRun) => run.cpuMicrosPerRequest ?? Number.NaN;
  const bare = cpu(bareProxy.throughput);
  const rows: Cell[][] = [
    ['HTTP and proxying (bare proxy)', bare, `${((100 * nestRelay.requestsPerSecond) / bareProxy.throughput.requestsPerSecond).toFixed(1)}% of the bare proxy's req/s for the Nest relay`],
    ['Nest, the validation pipe and the CommandBus (Nest relay - bare proxy)', cpu(nestRelay) - bare, ''],
    ["the gateway's own work (gateway - Nest relay)", cpu(gateway.throughput) - cpu(nestRelay), 'keys, rate limit, metering, pricing, durable appends, projections'],
  ];
  return table('CPU µs per request, closed loop, by layer', ['layer', 'CPU µs/req', 'note'], rows);
}

/** The slow streaming run (each request finds the target idle), for the targets it was taken of. */
function slowStreamTable(runs: [string, TargetResults][], rate: number): string {
  const direct = runs[0][1].slowStreaming;
  const rows = runs.flatMap(([name, run]): Cell[][] => {
    const slow = run.slowStreaming;
    if (!slow) return [];
    return [[name, slow.firstChunkMs.p50, slow.firstChunkMs.p90, slow.firstChunkMs.p99, slow.firstChunkMs.max,
      slow.firstChunkMs.p50 - (direct?.firstChunkMs.p50 ?? NaN), slow.firstChunkMs.p99 - (direct?.firstChunkMs.p99 ?? NaN), slow.latencyMs.p50, slow.failed]];
  });
  return table(`Streaming at ${rate} req/s (every request finds the target idle): time to first chunk (ms)`,
    ['target', 'p50', 'p90', 'p99', 'max', 'added p50', 'added p99', 'full stream p50', 'failed'], rows);
}

function overheadTables({ overhead, meta }: BenchResults): string[] {
  const runs: [string, TargetResults][] = [['upstream directly', overhead.direct], ['bare Fastify + undici proxy', overhead.bareProxy], ['gateway', overhead.gateway]];
  const closedLoopRuns: [string, ThroughputRun][] = [...runs.map(([name, run]): [string, ThroughputRun] => [name, run.throughput]), ['Nest relay (the stack alone, see below)', overhead.nestRelay]];
  const direct = overhead.direct;
  return [
    table(`Gateway overhead, closed loop (${meta.settings.connections} connections, ${meta.settings.durationS} s, latency ms)`,
      ['target', 'req/s', 'p50', 'p90', 'p99', 'added p50', 'added p99', 'CPU µs/req', 'main thread µs/req', 'cores busy', 'failed'],
      closedLoopRuns.map(([name, run]) => [name, run.requestsPerSecond, run.latencyMs.p50, run.latencyMs.p90, run.latencyMs.p99,
        run.latencyMs.p50 - direct.throughput.latencyMs.p50, run.latencyMs.p99 - direct.throughput.latencyMs.p99,
        run.cpuMicrosPerRequest ?? '-', run.mainThreadMicrosPerRequest ?? '-', coresBusy(run.coreBusy), run.failed])),
    stackShare(overhead),
    table(`Fixed offered rate ${meta.settings.fixedRate} req/s (latency ms; paced = open loop, autocannon = -R, bursty)`,
      ['target', 'paced p50', 'p90', 'p99', 'added p99', 'sender lag p99', 'autocannon p50', 'p90', 'p99', 'added p99', 'host steal ms (paced)', 'failed'],
      [...runs.map(([name, run]): Cell[] => [name, run.fixedRate.latencyMs.p50, run.fixedRate.latencyMs.p90, run.fixedRate.latencyMs.p99,
        run.fixedRate.latencyMs.p99 - direct.fixedRate.latencyMs.p99, run.fixedRate.sendLagMs.p99,
        run.fixedRateAutocannon.latencyMs.p50, run.fixedRateAutocannon.latencyMs.p90, run.fixedRateAutocannon.latencyMs.p99,
        run.fixedRateAutocannon.latencyMs.p99 - direct.fixedRateAutocannon.latencyMs.p99, stolen(run.hostStealMs.fixedRate), run.fixedRate.failed + run.fixedRateAutocannon.failed]),
      ...halfCapacityRows(runs, direct)]),
    table(`Streaming at ${meta.settings.streamRate} req/s: time to first chunk (ms)`,
      ['target', 'p50', 'p90', 'p99', 'max', 'added p50', 'added p99', 'full stream p50', 'host steal ms', 'failed'],
      runs.map(([name, run]) => [name, run.streaming.firstChunkMs.p50, run.streaming.firstChunkMs.p90, run.streaming.firstChunkMs.p99, run.streaming.firstChunkMs.max,
        run.streaming.firstChunkMs.p50 - direct.streaming.firstChunkMs.p50, run.streaming.firstChunkMs.p99 - direct.streaming.firstChunkMs.p99,
        run.streaming.latencyMs.p50, stolen(run.hostStealMs.streaming), run.streaming.failed])),
    slowStreamTable(runs, meta.settings.slowStreamRate),
    table('Memory (MiB)', ['process', 'peak RSS (VmHWM)', 'RSS after the runs'], [
      ['gateway', overhead.memoryMiB.gatewayPeakRss, overhead.memoryMiB.gatewayRssAfter],
      ['bare proxy', overhead.memoryMiB.bareProxyPeakRss, '-'],
    ]),
  ];
}

function storeTables(results: BenchResults): string[] {
  const { store, rebuild, queries } = results.costs;
  return [
    ...storeFigureTables(results),
    table(`Cost store: ${store.requests} priced requests, ${store.organizations} organizations, ${store.days} days (${(store.bytes / 2 ** 20).toFixed(0)} MiB)`,
      ['step', 'seconds', 'events/s', 'note'], [
        ['generation', store.generationSeconds, store.appendsPerSecond, store.generatedNow ? 'generated in this run' : 'cached from an earlier run'],
        ['projection rebuild', rebuild.seconds, rebuild.eventsPerSecond, `${rebuild.pricedRequestsInBuckets} priced requests in buckets`],
        ['gateway start-up on the store', queries.gatewayStartupMs / 1000, '-', 'spawn to listening'],
      ]),
    table('GET /v1/organization/costs, 31 daily buckets (ms)', ['run', 'ok', 'failed', 'p50', 'p90', 'p99', 'max', 'req/s'], [
      ['sequential', queries.sequential.ok, queries.sequential.failed, queries.sequential.latencyMs.p50, queries.sequential.latencyMs.p90, queries.sequential.latencyMs.p99, queries.sequential.latencyMs.max, '-'],
      ['sequential, group_by=line_item', queries.sequentialByLineItem.ok, queries.sequentialByLineItem.failed, queries.sequentialByLineItem.latencyMs.p50, queries.sequentialByLineItem.latencyMs.p90, queries.sequentialByLineItem.latencyMs.p99, queries.sequentialByLineItem.latencyMs.max, '-'],
      [`${queries.concurrent.durationS} s closed loop`, queries.concurrent.ok, queries.concurrent.failed, queries.concurrent.latencyMs.p50, queries.concurrent.latencyMs.p90, queries.concurrent.latencyMs.p99, queries.concurrent.latencyMs.max, queries.concurrent.requestsPerSecond],
    ]),
  ];
}

function profileTables({ gatewayProfile }: BenchResults): string[] {
  return (gatewayProfile ?? []).flatMap((summary) => [
    table(`Gateway CPU profile (${summary.busyMs.toFixed(0)} ms busy): top self time by function`, ['function', 'self ms', '%'], summary.topFunctions.map((entry) => [entry.name, entry.ms, entry.percent])),
    table('... by code area', ['area', 'self ms', '%'], summary.areas.map((entry) => [entry.name, entry.ms, entry.percent])),
    table('... gateway functions by inclusive time (synchronous callees included)', ['function', 'total ms', '%'], summary.topOwnInclusive.map((entry) => [entry.name, entry.ms, entry.percent])),
  ]);
}

export function printReport(results: BenchResults): string {
  const targets = targetsTable(results.targets);
  const header = `npm run bench — ${results.meta.startedAt}, commit ${results.meta.gitCommit}, ${results.meta.cpuModel} x${results.meta.cores}, node ${results.meta.node}\npinning: ${results.meta.pinning}`;
  return [header, ...overheadTables(results), ...storeTables(results), ...profileTables(results), targets].join('\n');
}
