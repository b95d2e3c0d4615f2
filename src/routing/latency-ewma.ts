// An exponentially weighted moving average of a deployment's time to first byte. A value not refreshed
// for `staleAfterMs` is forgotten, so a deployment that lost its traffic for being slow is tried again
// once in a while and can win it back when it recovers.

export interface EwmaParameters {
  /** Weight of the newest sample, in (0, 1]. */
  alpha: number;
  staleAfterMs: number;
}

export const DEFAULT_EWMA: EwmaParameters = { alpha: 0.3, staleAfterMs: 10_000 };

export class LatencyEwma {
  private value: number | null = null;
  private sampledAt = 0;

  constructor(private readonly params: EwmaParameters = DEFAULT_EWMA) {}

  add(ms: number, now: number): void {
    this.value = this.value === null || this.isStale(now) ? ms : this.value + this.params.alpha * (ms - this.value);
    this.sampledAt = now;
  }

  /** Milliseconds, or null when there is no fresh sample. */
  current(now: number): number | null {
    return this.value === null || this.isStale(now) ? null : this.value;
  }

  private isStale(now: number): boolean {
    return now - this.sampledAt > this.params.staleAfterMs;
  }
}
