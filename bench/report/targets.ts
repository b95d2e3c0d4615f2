// The issues' targets, checked against one run's figures. Each check names its area: a missed
// `gateway` target (the gateway's own cost) makes `npm run bench` take a CPU profile of the gateway.
import type { Settings } from '../settings';
import type { StoreFiguresWithFsync } from '../write-path/store-figures';
import type { BenchResults, TargetArea, TargetCheck } from './results';

type Figures = Omit<BenchResults, 'targets' | 'gatewayProfile' | 'meta'>;

/** Events/s with 100 writers in the latest full run before issue 31 (bench/results/2026-11-23-1ad21cb.json): not to fall below. */
const HUNDRED_WRITERS_EVENTS_PER_S = 40_242;
/** Gateway CPU µs per request, closed loop, in that run: not to rise above. */
const GATEWAY_CPU_MICROS = 244;

function atMost(area: TargetArea, target: string, measured: number, limit: number, unit: string, digits = 1): TargetCheck {
  const met = measured <= limit;
  return {
    area,
    target,
    limit: `<= ${limit.toFixed(digits)} ${unit}`,
    measured: `${measured.toFixed(digits)} ${unit}`,
    met,
    missedBy: met ? '' : `${(measured - limit).toFixed(digits)} ${unit} over (${((measured / limit) * 100).toFixed(0)}% of the limit)`,
  };
}

function atLeast(area: TargetArea, target: string, measured: number, limit: number, unit: string, digits = 1): TargetCheck {
  const met = measured >= limit;
  return {
    area,
    target,
    limit: `>= ${limit.toFixed(digits)} ${unit}`,
    measured: `${measured.toFixed(digits)} ${unit}`,
    met,
    missedBy: met ? '' : `${(limit - measured).toFixed(digits)} ${unit} short (${((measured / limit) * 100).toFixed(0)}% of the target)`,
  };
}

/** The store's own targets (issue 31), the only ones `npm run bench:store` checks. */
export function storeTargets({ fsync, coldAppend, coldAppendRunning, writePath, bytesPerRequest }: StoreFiguresWithFsync): TargetCheck[] {
  const hundredWriters = writePath.find((run) => run.writers === 100);
  const idleFsync = `an fsync after the same ${fsync.idle.gapMs} ms idle (limit: its p50 + 0.3 ms)`;
  return [
    atMost('store', 'cold single-event append p50, new store, caller side (limit: back-to-back fsync p50 + 0.3 ms)', coldAppend.latencyMs.p50, fsync.latencyMs.p50 + 0.3, 'ms', 2),
    atMost('store', `the same against ${idleFsync}`, coldAppend.latencyMs.p50, fsync.idle.latencyMs.p50 + 0.3, 'ms', 2),
    atMost('store', 'cold single-event append p50, running store (WAL restarted; limit: back-to-back fsync p50 + 0.3 ms)', coldAppendRunning.latencyMs.p50, fsync.latencyMs.p50 + 0.3, 'ms', 2),
    atMost('store', `the same against ${idleFsync}`, coldAppendRunning.latencyMs.p50, fsync.idle.latencyMs.p50 + 0.3, 'ms', 2),
    atLeast('store', 'events/s appended, 100 concurrent writers', hundredWriters?.eventsPerSecond ?? NaN, HUNDRED_WRITERS_EVENTS_PER_S, 'events/s', 0),
    atMost('store', `bytes on disk per billed request (${bytesPerRequest.requests} requests)`, bytesPerRequest.bytesPerRequest, 1024, 'B', 0),
  ];
}

function gatewayTargets({ fsync, overhead }: Figures, settings: Settings): TargetCheck[] {
  const { direct, bareProxy, gateway } = overhead;
  const ratio = (100 * gateway.throughput.requestsPerSecond) / bareProxy.throughput.requestsPerSecond;
  const addedP99 = gateway.fixedRate.latencyMs.p99 - direct.fixedRate.latencyMs.p99;
  const addedFirstChunkP99 = gateway.streaming.firstChunkMs.p99 - direct.streaming.firstChunkMs.p99;
  const slowFirstChunkP50 = (gateway.slowStreaming?.firstChunkMs.p50 ?? NaN) - (direct.slowStreaming?.firstChunkMs.p50 ?? NaN);
  const latencyAtFixedRate = atMost('gateway', `p99 added latency at ${settings.fixedRate} req/s (limit: 2 ms + fsync p99)`, addedP99, 2 + fsync.latencyMs.p99, 'ms', 2);
  if (gateway.halfCapacity) latencyAtFixedRate.measured += ` (saturated: capacity ${gateway.throughput.requestsPerSecond.toFixed(0)} req/s)`;
  return [
    atLeast('gateway', 'gateway throughput / bare proxy throughput', ratio, 40, '%'),
    atMost('gateway', 'gateway CPU per request', gateway.throughput.cpuMicrosPerRequest ?? NaN, GATEWAY_CPU_MICROS, 'µs', 0),
    latencyAtFixedRate,
    atMost('gateway', `p99 added time to first chunk, streaming at ${settings.streamRate} req/s (limit: 2 ms + fsync p99)`, addedFirstChunkP99, 2 + fsync.latencyMs.p99, 'ms', 2),
    atMost('gateway', `p50 added time to first chunk, streaming at ${settings.slowStreamRate} req/s`, slowFirstChunkP50, 1.5, 'ms', 2),
  ];
}

export function checkTargets(figures: Figures, settings: Settings): TargetCheck[] {
  const { overhead, costs } = figures;
  return [
    ...gatewayTargets(figures, settings),
    ...storeTargets(figures),
    atMost('costs', 'cost query, 31 daily buckets, p99', costs.queries.sequential.latencyMs.p99, 20, 'ms', 2),
    atMost('costs', `cost projection rebuild, ${costs.store.requests} priced requests`, costs.rebuild.seconds, 60, 's', 1),
    atMost('memory', 'gateway peak RSS under the overhead run', overhead.memoryMiB.gatewayPeakRss, 250, 'MiB', 0),
  ];
}
