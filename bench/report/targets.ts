// The targets, checked against one run's figures.
import type { Settings } from '../settings';
import type { BenchResults, TargetCheck } from './results';

type Figures = Omit<BenchResults, 'targets' | 'gatewayProfile' | 'meta'>;

function atMost(target: string, measured: number, limit: number, unit: string, digits = 1): TargetCheck {
  const met = measured <= limit;
  return {
    target,
    limit: `<= ${limit.toFixed(digits)} ${unit}`,
    measured: `${measured.toFixed(digits)} ${unit}`,
    met,
    missedBy: met ? '' : `${(measured - limit).toFixed(digits)} ${unit} over (${((measured / limit) * 100).toFixed(0)}% of the limit)`,
  };
}

function atLeast(target: string, measured: number, limit: number, unit: string, digits = 1): TargetCheck {
  const met = measured >= limit;
  return {
    target,
    limit: `>= ${limit.toFixed(digits)} ${unit}`,
    measured: `${measured.toFixed(digits)} ${unit}`,
    met,
    missedBy: met ? '' : `${(limit - measured).toFixed(digits)} ${unit} short (${((measured / limit) * 100).toFixed(0)}% of the target)`,
  };
}

export function checkTargets({ fsync, overhead, writePath, costs }: Figures, settings: Settings): TargetCheck[] {
  const { direct, bareProxy, gateway } = overhead;
  const ratio = (100 * gateway.throughput.requestsPerSecond) / bareProxy.throughput.requestsPerSecond;
  const addedP99 = gateway.fixedRate.latencyMs.p99 - direct.fixedRate.latencyMs.p99;
  const addedFirstChunkP99 = gateway.streaming.firstChunkMs.p99 - direct.streaming.firstChunkMs.p99;
  const hundredWriters = writePath.find((run) => run.writers === 100);
  const latencyAtFixedRate = atMost(`p99 added latency at ${settings.fixedRate} req/s (limit: 2 ms + fsync p99)`, addedP99, 2 + fsync.latencyMs.p99, 'ms', 2);
  if (gateway.halfCapacity) latencyAtFixedRate.measured += ` (saturated: capacity ${gateway.throughput.requestsPerSecond.toFixed(0)} req/s)`;
  return [
    atLeast('gateway throughput / bare proxy throughput', ratio, 40, '%'),
    atMost('gateway CPU per request', gateway.throughput.cpuMicrosPerRequest ?? NaN, 200, 'µs', 0),
    latencyAtFixedRate,
    atMost(`p99 added time to first chunk, streaming at ${settings.streamRate} req/s`, addedFirstChunkP99, 2, 'ms', 2),
    atLeast('events/s appended, 100 concurrent writers', hundredWriters?.eventsPerSecond ?? NaN, 20_000, 'events/s', 0),
    atMost('cost query, 31 daily buckets, p99', costs.queries.sequential.latencyMs.p99, 20, 'ms', 2),
    atMost(`cost projection rebuild, ${costs.store.requests} priced requests`, costs.rebuild.seconds, 60, 's', 1),
    atMost('gateway peak RSS under the overhead run', overhead.memoryMiB.gatewayPeakRss, 250, 'MiB', 0),
  ];
}
