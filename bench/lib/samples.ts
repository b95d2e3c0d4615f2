// Latency samples and their summary. Percentiles are exact (sorted samples, nearest rank), not
// histogram buckets, so sub-millisecond differences between runs stay visible.

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of ascending `sorted`; NaN when there are no samples. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  const total = samples.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    mean: sorted.length ? total / sorted.length : NaN,
  };
}

/** Milliseconds elapsed since `startNs` (a process.hrtime.bigint() reading). */
export function msSince(startNs: bigint): number {
  return Number(process.hrtime.bigint() - startNs) / 1e6;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
