// Feeds every in-process projection from ONE subscription: each event is read and decoded once, and
// the events that arrive together are applied as one page per projection (one read-model
// transaction per page instead of per event). Projections skip what their own checkpoint already
// covers, so starting from the oldest checkpoint and re-applying a page after a failure are harmless.
import { comparePositions, type EventStore, type RecordedEvent, type Subscription } from '../event-store/event-store.port';
import { catchUpProjection, type Projection } from './projection-runner';

export type HubErrorHandler = (projection: string, error: unknown) => void;

const RETRY_DELAY_MS = 1000;

export class ProjectionHub {
  private subscription: Subscription | null = null;
  private pending: RecordedEvent[] = [];
  private flushing: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly projections: Projection[],
    private readonly onError: HubErrorHandler = () => undefined,
  ) {}

  /** Catches every projection up with the store, then follows it live. */
  async start(): Promise<void> {
    for (const projection of this.projections) await catchUpProjection(this.store, projection);
    this.subscription = this.store.subscribeToAll({ after: this.oldestCheckpoint() }, (event) => this.enqueue(event));
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.flushing;
  }

  private oldestCheckpoint(): string | null {
    const checkpoints = this.projections.map((p) => p.checkpoint());
    if (checkpoints.some((c) => c === null)) return null;
    return (checkpoints as string[]).reduce((oldest, c) => (comparePositions(c, oldest) < 0 ? c : oldest));
  }

  /** Returns at once so the subscription keeps reading; the page is applied on the next turn. */
  private enqueue(event: RecordedEvent): void {
    this.pending.push(event);
    this.kick();
  }

  private kick(): void {
    if (this.flushing || this.retryTimer) return;
    this.flushing = this.drain().finally(() => {
      this.flushing = null;
      if (this.pending.length > 0) this.kick();
    });
  }

  /** Applies what has accumulated; after a failure keeps the page and tries again a little later. */
  private async drain(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const page = this.pending;
      this.pending = [];
      if (await this.applyEverywhere(page)) {
        this.pending = [...page, ...this.pending];
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.kick();
        }, RETRY_DELAY_MS);
        this.retryTimer.unref();
        return;
      }
    }
  }

  private async applyEverywhere(page: RecordedEvent[]): Promise<boolean> {
    let failed = false;
    for (const projection of this.projections) {
      try {
        await projection.applyPage(page);
      } catch (error) {
        failed = true;
        this.onError(projection.name, error);
      }
    }
    return failed;
  }
}
