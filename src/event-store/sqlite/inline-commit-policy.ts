// When an append may be committed on the caller's thread instead of the append worker's. An idle
// writer is a sleeping thread: waking it and being woken by its reply cost a cold append about 0.4 ms
// on top of SQLite's own commit (docs/benchmarks.md, finding 47). So a commit is made inline when the
// worker has nothing in flight and the store has been quiet for a moment; under load every append
// still goes to the worker, whose group commit shares one fsync among many appends and keeps the
// fsyncs off the event loop. An inline commit that blocks the loop too long (a slow disk, another
// process's checkpoint) sends every commit to the worker for a while.

export interface InlineCommitTiming {
  /** Quiet time since the last commit ended before an append may be committed inline, ms. */
  quietMs: number;
  /** An inline commit slower than this blocked the event loop too long, ms. */
  slowCommitMs: number;
  /** How long every commit goes to the worker after a slow inline commit, ms. */
  pauseMs: number;
}

/** slowCommitMs: well past this disk's p99 (0.5 to 3 ms) and its rare single fsyncs of 10 ms, so only a
 * disk that is slow, not one that hiccups, sends the commits back to the worker. */
export const DEFAULT_INLINE_COMMIT_TIMING: InlineCommitTiming = { quietMs: 1, slowCommitMs: 20, pauseMs: 1000 };

export class InlineCommitPolicy {
  private lastCommitEndedAt = -Infinity;
  private pausedUntil = -Infinity;

  constructor(private readonly timing: InlineCommitTiming = DEFAULT_INLINE_COMMIT_TIMING) {}

  /** True when appends made at `now` may be committed inline: nothing in flight, quiet, not paused. */
  mayCommitInline(now: number, appendsInFlight: number): boolean {
    return appendsInFlight === 0 && now >= this.pausedUntil && now - this.lastCommitEndedAt >= this.timing.quietMs;
  }

  /** Any commit ended at `now` (inline or by the worker). */
  commitEnded(now: number): void {
    this.lastCommitEndedAt = now;
  }

  /** An inline commit took `durationMs`, ending at `now`. */
  inlineCommitEnded(now: number, durationMs: number): void {
    this.commitEnded(now);
    if (durationMs > this.timing.slowCommitMs) this.pausedUntil = now + this.timing.pauseMs;
  }
}
