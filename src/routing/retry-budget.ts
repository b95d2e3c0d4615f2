// How many failed attempts of a model may be retried (docs/routing.md "Retry budget"): retries stay within
// `ratio` of the model's requests over the last `windowMs`, but `minPerSecond` retries a second are always
// allowed, so that a quiet model still fails over. A total outage therefore costs at most
// (1 + ratio) attempts per request under load, and never a storm of retries against dead upstreams.

export interface RetryBudgetParameters {
  ratio: number;
  windowMs: number;
  minPerSecond: number;
}

export const DEFAULT_RETRY_BUDGET: RetryBudgetParameters = { ratio: 0.2, windowMs: 10_000, minPerSecond: 3 };

/** Counts in one-second buckets over the window; old buckets fall off as time passes. */
class SlidingCount {
  private readonly buckets: number[];
  private readonly seconds: number[];

  constructor(private readonly bucketCount: number) {
    this.buckets = new Array<number>(bucketCount).fill(0);
    this.seconds = new Array<number>(bucketCount).fill(-1);
  }

  add(now: number): void {
    const second = Math.floor(now / 1000);
    const slot = second % this.bucketCount;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.buckets[slot] = 0;
    }
    this.buckets[slot] += 1;
  }

  /** The count over the window ending now. */
  total(now: number): number {
    const second = Math.floor(now / 1000);
    let sum = 0;
    for (let i = 0; i < this.bucketCount; i += 1) if (second - this.seconds[i] < this.bucketCount) sum += this.buckets[i];
    return sum;
  }

  /** The count in the current second. */
  thisSecond(now: number): number {
    const second = Math.floor(now / 1000);
    const slot = second % this.bucketCount;
    return this.seconds[slot] === second ? this.buckets[slot] : 0;
  }
}

export class RetryBudget {
  private readonly requests: SlidingCount;
  private readonly retries: SlidingCount;

  constructor(private readonly params: RetryBudgetParameters = DEFAULT_RETRY_BUDGET) {
    const buckets = Math.max(1, Math.ceil(params.windowMs / 1000));
    this.requests = new SlidingCount(buckets);
    this.retries = new SlidingCount(buckets);
  }

  /** Every request of the model counts once, however many attempts it takes. */
  requestStarted(now: number): void {
    this.requests.add(now);
  }

  /** Takes one retry from the budget when it has one; false when the retry must not be made. */
  tryRetry(now: number): boolean {
    const withinRatio = this.retries.total(now) < this.params.ratio * this.requests.total(now);
    const withinFloor = this.retries.thisSecond(now) < this.params.minPerSecond;
    if (!withinRatio && !withinFloor) return false;
    this.retries.add(now);
    return true;
  }

  /** Retries over the window and the share of requests they are (metrics). */
  used(now: number): { retries: number; requests: number } {
    return { retries: this.retries.total(now), requests: this.requests.total(now) };
  }
}
