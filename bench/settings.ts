// Every knob of `npm run bench`, with its default; each can be overridden by the environment variable
// named next to it (e.g. BENCH_DURATION_S=5 for a quicker, less precise run).

export function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

export const SETTINGS = {
  /** Fixed latency of the mock upstream before it answers (BENCH_UPSTREAM_DELAY_MS). */
  upstreamDelayMs: numberFrom('BENCH_UPSTREAM_DELAY_MS', 1),
  /** Closed-loop connections (BENCH_CONNECTIONS). */
  connections: numberFrom('BENCH_CONNECTIONS', 50),
  /** Warm-up before each measured run, so V8 has optimised the hot path (BENCH_WARMUP_S). */
  warmupS: numberFrom('BENCH_WARMUP_S', 8),
  /** Measured run length (BENCH_DURATION_S). */
  durationS: numberFrom('BENCH_DURATION_S', 10),
  /** Offered rate of the fixed-rate latency runs (BENCH_FIXED_RATE). */
  fixedRate: numberFrom('BENCH_FIXED_RATE', 500),
  /** Offered rate of the streaming time-to-first-chunk runs (BENCH_STREAM_RATE). */
  streamRate: numberFrom('BENCH_STREAM_RATE', 100),
  /** Offered rate of the slow streaming run, where every request finds the gateway idle (BENCH_SLOW_STREAM_RATE). */
  slowStreamRate: numberFrom('BENCH_SLOW_STREAM_RATE', 5),
  /** Length of the slow streaming run (BENCH_SLOW_STREAM_S). */
  slowStreamS: numberFrom('BENCH_SLOW_STREAM_S', 10),
  /** write+fsync iterations of the disk probe (BENCH_FSYNC_ITERATIONS). */
  fsyncIterations: numberFrom('BENCH_FSYNC_ITERATIONS', 2000),
  /** Seconds per write-path run (BENCH_WRITE_S). */
  writeS: numberFrom('BENCH_WRITE_S', 5),
  /** Cold single-event appends, each after an idle gap (BENCH_COLD_APPENDS). */
  coldAppends: numberFrom('BENCH_COLD_APPENDS', 300),
  /** Idle time before each cold append, so both the main thread and the append worker sleep (BENCH_COLD_GAP_MS). */
  coldGapMs: numberFrom('BENCH_COLD_GAP_MS', 20),
  /** Billed requests appended for the bytes-on-disk figure (BENCH_BYTES_REQUESTS). */
  bytesRequests: numberFrom('BENCH_BYTES_REQUESTS', 20_000),
  /** Priced requests in the cost store (BENCH_COST_REQUESTS). */
  costRequests: numberFrom('BENCH_COST_REQUESTS', 1_000_000),
  costOrganizations: numberFrom('BENCH_COST_ORGS', 100),
  costDays: numberFrom('BENCH_COST_DAYS', 90),
  /** Sequential cost queries timed one by one (BENCH_COST_QUERIES). */
  costQueries: numberFrom('BENCH_COST_QUERIES', 2000),
};

export type Settings = typeof SETTINGS;
