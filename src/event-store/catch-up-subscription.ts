// A subscription built only on readAll: read pages after the checkpoint, deliver one event at a time,
// then sleep until woken (an in-process append) or the poll interval elapses (another process wrote).
// Under a steady stream of commits, reads are at least a batch window apart, so the commits of that
// window are read and delivered as one page rather than one read (and one read-model transaction
// downstream) per commit. Delivery is at-least-once per subscription lifetime and strictly in global order.
import { Sleeper } from '../common/sleeper';
import type { EventHandler, RecordedEvent, SubscribeOptions, Subscription } from './event-store.port';

export interface CatchUpSource {
  readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]>;
}

export interface CatchUpTiming {
  pollIntervalMs: number;
  retryDelayMs: number;
  pageSize: number;
  /** Least time between the starts of two reads at the head (0: read as soon as woken). */
  batchWindowMs: number;
}

export const DEFAULT_CATCH_UP_TIMING: CatchUpTiming = { pollIntervalMs: 100, retryDelayMs: 1000, pageSize: 256, batchWindowMs: 25 };

export class CatchUpSubscription implements Subscription {
  private checkpoint: string | null;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private readonly sleeper = new Sleeper();
  private readonly running: Promise<void>;

  constructor(
    private readonly source: CatchUpSource,
    private readonly options: SubscribeOptions,
    private readonly handler: EventHandler,
    private readonly timing: CatchUpTiming = DEFAULT_CATCH_UP_TIMING,
  ) {
    this.checkpoint = options.after;
    this.running = this.run();
  }

  /** New events may exist: end the current sleep now instead of at the next poll. */
  wake(): void {
    this.sleeper.interrupt();
  }

  /** Resolves once no handler call is in flight; do not await it from inside the handler. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const page = await this.readPage();
      if (page === null) continue;
      for (const event of page) {
        if (!(await this.deliver(event))) return;
        this.checkpoint = event.position;
      }
      // A short page (or an empty one) ends at the store's head: nothing more until woken or the next poll.
      if (page.length < this.timing.pageSize) {
        await this.sleep(this.timing.pollIntervalMs);
        await this.waitForBatchWindow();
      }
    }
  }

  /** Not interrupted by wake(): commits during the window are what it gathers. */
  private async waitForBatchWindow(): Promise<void> {
    const remaining = this.lastReadAt + this.timing.batchWindowMs - performance.now();
    if (remaining > 0 && !this.stopped) await new Promise((resolve) => setTimeout(resolve, remaining));
  }

  private async readPage(): Promise<RecordedEvent[] | null> {
    this.lastReadAt = performance.now();
    try {
      return await this.source.readAll({ after: this.checkpoint, maxCount: this.timing.pageSize });
    } catch (error) {
      if (this.stopped) return null;
      this.options.onError?.(error, null);
      await this.sleep(this.timing.retryDelayMs);
      return null;
    }
  }

  /** Retries the same event until the handler accepts it; false when stopped first. */
  private async deliver(event: RecordedEvent): Promise<boolean> {
    while (!this.stopped) {
      try {
        await this.handler(event);
        return true;
      } catch (error) {
        this.options.onError?.(error, event);
        await this.sleep(this.timing.retryDelayMs);
      }
    }
    return false;
  }

  /** Sleeps for `ms` unless stopped or woken since the last sleep (then the next read is due now). */
  private sleep(ms: number): Promise<void> {
    return this.stopped ? Promise.resolve() : this.sleeper.sleep(ms);
  }
}

/** The live subscriptions of one store: woken together after a local append, stopped together on close. */
export class CatchUpSubscriptions {
  private readonly live = new Set<CatchUpSubscription>();

  constructor(
    private readonly source: CatchUpSource,
    private readonly timing: CatchUpTiming = DEFAULT_CATCH_UP_TIMING,
  ) {}

  /** `source` replaces the store's own for this subscription (the SQLite store's in-memory feed). */
  open(options: SubscribeOptions, handler: EventHandler, source: CatchUpSource = this.source): Subscription {
    const subscription = new CatchUpSubscription(source, options, handler, this.timing);
    this.live.add(subscription);
    return {
      stop: async () => {
        this.live.delete(subscription);
        await subscription.stop();
      },
    };
  }

  wakeAll(): void {
    for (const subscription of this.live) subscription.wake();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.live].map((subscription) => subscription.stop()));
    this.live.clear();
  }
}
