import { storeTargets } from '../../bench/report/targets';
import type { StoreFiguresWithFsync } from '../../bench/write-path/store-figures';
import type { LatencySummary } from '../../bench/lib/samples';

const latency = (p50: number, p99 = p50): LatencySummary => ({ count: 100, p50, p90: p50, p99, max: p99, mean: p50 });

/** Figures just at each store target's limit, with one of them moved by `nudge`. */
function figures(nudge: { coldMs?: number; runningMs?: number; events?: number; bytes?: number } = {}): StoreFiguresWithFsync {
  return {
    fsync: { iterations: 2000, latencyMs: latency(0.1), idle: { iterations: 200, gapMs: 20, latencyMs: latency(0.4) } },
    coldAppend: { store: 'fresh', fillAppends: 20, appends: 300, gapMs: 20, latencyMs: latency(0.4 + (nudge.coldMs ?? 0)), pagesPerEvent: null },
    coldAppendRunning: { store: 'running', fillAppends: 5020, appends: 300, gapMs: 20, latencyMs: latency(0.4 + (nudge.runningMs ?? 0)), pagesPerEvent: null },
    pacedAppends: {} as StoreFiguresWithFsync['pacedAppends'],
    writePath: [{ writers: 100, eventsPerSecond: 40_242 + (nudge.events ?? 0) } as StoreFiguresWithFsync['writePath'][number]],
    bytesPerRequest: { requests: 20_000, bytesPerRequest: 1024 + (nudge.bytes ?? 0) } as StoreFiguresWithFsync['bytesPerRequest'],
  };
}
const metOf = (checks: ReturnType<typeof storeTargets>) => checks.map((check) => check.met);

describe('store targets (issue 31)', () => {
  it('meets each target at its limit', () => {
    expect(metOf(storeTargets(figures()))).toEqual([true, true, true, true, true, true]);
  });

  it('misses each target just past its limit, and says by how much', () => {
    const cold = storeTargets(figures({ coldMs: 0.01 }));
    expect(metOf(cold)).toEqual([false, true, true, true, true, true]);
    expect(cold[0].missedBy).toMatch(/^0\.01 ms over/);
    expect(metOf(storeTargets(figures({ coldMs: 0.31 })))).toEqual([false, false, true, true, true, true]);
    expect(metOf(storeTargets(figures({ runningMs: 0.01 })))).toEqual([true, true, false, true, true, true]);
    expect(metOf(storeTargets(figures({ runningMs: 0.31 })))).toEqual([true, true, false, false, true, true]);
    expect(metOf(storeTargets(figures({ events: -1 })))).toEqual([true, true, true, true, false, true]);
    expect(metOf(storeTargets(figures({ bytes: 1 })))).toEqual([true, true, true, true, true, false]);
  });
});
