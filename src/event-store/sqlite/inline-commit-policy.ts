// When an append may be committed on the caller's thread instead of the append worker's. An idle
// writer is a sleeping thread: waking it and being woken by its reply cost a cold append about 0.3 ms
// on top of SQLite's own commit (docs/benchmarks-archive.md, finding 47). So a commit is made inline when the
// worker has nothing in flight, the store has been quiet for a moment and the event loop has been mostly
// idle: an inline commit stops the loop for its fsync, which costs nothing when nothing else waits.
// Under load every append still goes to the worker, whose group commit shares one fsync among many
// appends and keeps the fsyncs off the event loop. (Quiet time alone is no measure of load: a saturated
// loop's turns are long, so its commits look far apart.) An inline commit that blocks the loop too long
// (a slow disk, another process's checkpoint) sends every commit to the worker for a while.

export interface InlineCommitTiming {
  /** Quiet time since the last commit ended before an append may be committed inline, ms. */
  quietMs: number;
  /** Event-loop utilization (0 to 1, over the last window) at or under which the loop counts as idle. */
  idleLoopUtilization: number;
  /** An inline commit slower than this blocked the event loop too long, ms. */
  slowCommitMs: number;
  /** How long every commit goes to the worker after a slow inline commit, ms. */
  pauseMs: number;
}

/** slowCommitMs: well past this disk's p99 (0.5 to 3 ms) and its rare single fsyncs of 10 ms, so only a
 * disk that is slow, not one that hiccups, sends the commits back to the worker. */
export const DEFAULT_INLINE_COMMIT_TIMING: InlineCommitTiming = { quietMs: 1, idleLoopUtilization: 0.1, slowCommitMs: 20, pauseMs: 1000 };

export class InlineCommitPolicy {
  private lastCommitEndedAt = -Infinity;
  private pausedUntil = -Infinity;

  constructor(private readonly timing: InlineCommitTiming = DEFAULT_INLINE_COMMIT_TIMING) {}

  /** True when appends made at `now` may be committed inline: nothing in flight, quiet, an idle loop, not paused. */
  mayCommitInline(now: number, appendsInFlight: number, loopUtilization: number): boolean {
    return (
      appendsInFlight === 0 &&
      now >= this.pausedUntil &&
      now - this.lastCommitEndedAt >= this.timing.quietMs &&
      loopUtilization <= this.timing.idleLoopUtilization
    );
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
