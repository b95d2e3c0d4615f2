// The runs of one overhead target (upstream directly, bare proxy, or gateway): closed-loop throughput
// with the process's CPU time, the fixed offered rate (paced, and autocannon's rate option as the
// issue names it) and streaming time to first chunk. Each run is preceded by a warm-up.
import { runLoad, type LoadResult } from '../lib/load';
import { runPaced, type PacedResult } from '../lib/paced';
import { cpuMicros, cpuMicrosByThread, watchCores, watchSteal } from '../lib/proc';
import type { Settings } from '../settings';
import type { ChatTargets } from './chat-requests';

/** Settles the sender and the target after the previous run's different load shape. */
const PACED_WARMUP_S = 2;
/** Below this multiple of the fixed rate, a target's capacity is too close to say much at that rate. */
const CAPACITY_MARGIN = 1.2;

export interface ThroughputRun extends LoadResult {
  /** CPU time of the process under test per completed request, all threads; null for the direct runs. */
  cpuMicrosPerRequest: number | null;
  /** The same, main thread only (the rest: the store's append worker, V8 and libuv threads). */
  mainThreadMicrosPerRequest: number | null;
  /** How busy each core was, every process included: a saturated load core, or load from outside the benchmark, shows here. */
  coreBusy: Record<string, number>;
}

export interface TargetResults {
  throughput: ThroughputRun;
  fixedRate: PacedResult;
  fixedRateAutocannon: LoadResult;
  /**
   * Only for a target that cannot sustain the fixed rate (its latencies there are a growing queue):
   * the same paced run at half its closed-loop throughput, i.e. its latency when not saturated.
   */
  halfCapacity: (PacedResult & { ratePerSecond: number }) | null;
  streaming: PacedResult;
  /**
   * Streaming at the slow rate (BENCH_SLOW_STREAM_RATE, 5/s): every request finds the target idle, so
   * its first chunk waits on a cold admission append. Null for targets it was not asked of.
   */
  slowStreaming: PacedResult | null;
  /** The hypervisor's steal time per core during the fixed-rate (paced) and streaming runs, in ms. */
  hostStealMs: { fixedRate: Record<string, number>; streaming: Record<string, number> };
}

/** A paced run with the steal time the host took from each core meanwhile. */
async function pacedWithSteal(...args: Parameters<typeof runPaced>): Promise<[PacedResult, Record<string, number>]> {
  const steal = watchSteal();
  const result = await runPaced(...args);
  return [result, steal()];
}

/** `serverPid`: the process under test; null when the target is the upstream itself. `slowStreams`: run the slow streaming run too. */
export async function measureTarget(targets: ChatTargets, serverPid: number | null, settings: Settings, slowStreams = false): Promise<TargetResults> {
  const closedLoop = { connections: settings.connections };
  await runLoad(targets.completion, { ...closedLoop, durationS: settings.warmupS });
  const throughput = await measuredThroughput(targets, serverPid, settings);
  const paced = { ratePerSecond: settings.fixedRate, connections: settings.connections };
  await runPaced(targets.completion, { ...paced, durationS: PACED_WARMUP_S });
  const [fixedRate, fixedRateSteal] = await pacedWithSteal(targets.completion, { ...paced, durationS: settings.durationS });
  const fixedRateAutocannon = await runLoad(targets.completion, { ...closedLoop, durationS: settings.durationS, overallRate: settings.fixedRate });
  const halfCapacity = throughput.requestsPerSecond < CAPACITY_MARGIN * settings.fixedRate ? await pacedAtHalf(targets, throughput.requestsPerSecond, settings) : null;
  const stream = { ratePerSecond: settings.streamRate, connections: settings.connections, expectStreamEnd: true };
  await runPaced(targets.stream, { ...stream, durationS: PACED_WARMUP_S });
  const [streaming, streamingSteal] = await pacedWithSteal(targets.stream, { ...stream, durationS: settings.durationS });
  const slowStreaming = slowStreams ? await runPaced(targets.stream, { ...stream, ratePerSecond: settings.slowStreamRate, durationS: settings.slowStreamS }) : null;
  return { throughput, fixedRate, fixedRateAutocannon, halfCapacity, streaming, slowStreaming, hostStealMs: { fixedRate: fixedRateSteal, streaming: streamingSteal } };
}

async function pacedAtHalf(targets: ChatTargets, capacity: number, settings: Settings): Promise<PacedResult & { ratePerSecond: number }> {
  const ratePerSecond = Math.max(1, Math.floor(capacity / 2));
  return { ratePerSecond, ...(await runPaced(targets.completion, { ratePerSecond, connections: settings.connections, durationS: settings.durationS })) };
}

/** Closed-loop throughput alone, after its warm-up: for a reference target that only the CPU figures are wanted of. */
export async function measureThroughput(targets: ChatTargets, serverPid: number, settings: Settings): Promise<ThroughputRun> {
  await runLoad(targets.completion, { connections: settings.connections, durationS: settings.warmupS });
  return measuredThroughput(targets, serverPid, settings);
}

async function measuredThroughput(targets: ChatTargets, serverPid: number | null, settings: Settings): Promise<ThroughputRun> {
  const threadsBefore = serverPid === null ? null : cpuMicrosByThread(serverPid);
  const processBefore = serverPid === null ? 0 : cpuMicros(serverPid);
  const cores = watchCores();
  const load = await runLoad(targets.completion, { connections: settings.connections, durationS: settings.durationS });
  const coreBusy = cores();
  const completed = load.ok + load.failed;
  if (serverPid === null || threadsBefore === null || completed === 0) return { ...load, cpuMicrosPerRequest: null, mainThreadMicrosPerRequest: null, coreBusy };
  // The process total also counts threads that ended during the run; the main thread is read on its own.
  const mainThread = (cpuMicrosByThread(serverPid).get('main') ?? 0) - (threadsBefore.get('main') ?? 0);
  return { ...load, cpuMicrosPerRequest: (cpuMicros(serverPid) - processBefore) / completed, mainThreadMicrosPerRequest: mainThread / completed, coreBusy };
}
