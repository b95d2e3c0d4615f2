// Feeds every in-process projection from ONE subscription: each event is read and decoded once, and
// the events that arrive together are applied as one page per projection (one read-model
// transaction per page instead of per event). Projections skip what their own checkpoint already
// covers, so starting from the oldest checkpoint and re-applying a page after a failure are harmless.
// An event a projection rejects is parked (parking/apply-or-park.ts); an infrastructure failure keeps
// the page and retries it, and a projection failing for longer than `stuckAfterMs` is reported stuck.
import { comparePositions, type EventStore, type RecordedEvent, type Subscription } from '../event-store/event-store.port';
import type { Projection } from './projection-runner';
import { applyPageOrPark, type ParkingLot } from './parking/apply-or-park';

export type HubErrorHandler = (projection: string, error: unknown) => void;

export interface ProjectionHubOptions {
  parking?: ParkingLot | null;
  /** How long a projection may keep failing before readiness reports it stuck. */
  stuckAfterMs?: number;
  now?: () => number;
}

export interface ProjectionHubStatus {
  startedUp: boolean;
  /** While catching up at start: events applied so far and the head position it is catching up to. */
  catchingUp?: { applied: number; head: string | null; position: string | null };
  /** Projections failing to apply for longer than stuckAfterMs, with the time they started failing. */
  stuck: Record<string, string>;
  /** Unacknowledged parked events per projection (read-models.sqlite, every replica's). */
  parked: Record<string, number>;
}

const RETRY_DELAY_MS = 1000;
const CATCH_UP_PAGE = 2048;
export const DEFAULT_STUCK_AFTER_MS = 10_000;
const DRAIN_POLL_MS = 10;

export class ProjectionHub {
  private subscription: Subscription | null = null;
  private pending: RecordedEvent[] = [];
  private flushing: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private startedUp = false;
  private stopping = false;
  private catchingUp: { applied: number; head: string | null; position: string | null } | null = null;
  /** The last position every projection applied (or parked): what a clean stop drains up to the head. */
  private appliedThrough: string | null = null;
  private readonly failingSince = new Map<string, number>();
  private readonly parking: ParkingLot | null;
  private readonly stuckAfterMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: EventStore,
    private readonly projections: Projection[],
    private readonly onError: HubErrorHandler = () => undefined,
    options: ProjectionHubOptions = {},
  ) {
    this.parking = options.parking ?? null;
    this.stuckAfterMs = options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * Catches every projection up with the store in ONE pass from the oldest checkpoint (each skips what
   * its own checkpoint covers), then follows it live. Start-up time grows with what the read models
   * lack, not with the store's size.
   */
  async start(): Promise<void> {
    const head = await this.store.headPosition();
    let after = this.oldestCheckpoint();
    this.catchingUp = { applied: 0, head, position: after };
    while (!this.stopping) {
      const page = await this.store.readAll({ after, maxCount: CATCH_UP_PAGE });
      if (page.length === 0) break;
      // A page a projection failed on (not an event it rejected: that one is parked) is read again.
      if (await this.applyEverywhere(page)) {
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
        continue;
      }
      after = page[page.length - 1].position;
      this.appliedThrough = after;
      this.catchingUp = { applied: this.catchingUp.applied + page.length, head, position: after };
      // Lets /healthz and /readyz answer between pages while a long catch-up runs.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.stopping) return;
    this.appliedThrough = after;
    this.catchingUp = null;
    this.subscription = this.store.subscribeToAll({ after }, (event) => this.enqueue(event));
    this.startedUp = true;
  }

  /**
   * At a clean stop, once every writer has stopped: waits until each projection has applied the store's
   * head (read now), at most `timeoutMs`. False when it did not get there (a failing projection).
   */
  async drainToHead(timeoutMs: number): Promise<boolean> {
    if (!this.startedUp || this.stopping) return false;
    const head = await this.store.headPosition();
    const deadline = this.now() + timeoutMs;
    for (;;) {
      if (head === null || (this.appliedThrough !== null && comparePositions(this.appliedThrough, head) >= 0)) return true;
      // Positions a subscription never delivers (e.g. EventStoreDB system events) must not hold the stop.
      const [next] = await this.store.readAll({ after: this.appliedThrough, maxCount: 1 });
      if (next === undefined || comparePositions(next.position, head) > 0) return true;
      if (this.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.subscription?.stop();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.flushing;
  }

  /** Readiness: caught up once, nothing stuck, nothing parked that an operator has not acknowledged. */
  ready(): boolean {
    const { startedUp, stuck, parked } = this.status();
    return startedUp && Object.keys(stuck).length === 0 && Object.keys(parked).length === 0;
  }

  status(): ProjectionHubStatus {
    const stuck: Record<string, string> = {};
    for (const [name, since] of this.failingSince) {
      if (this.now() - since > this.stuckAfterMs) stuck[name] = new Date(since).toISOString();
    }
    const status: ProjectionHubStatus = { startedUp: this.startedUp, stuck, parked: this.parking?.records.unacknowledged() ?? {} };
    if (this.catchingUp) status.catchingUp = this.catchingUp;
    return status;
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
      this.appliedThrough = page[page.length - 1].position;
    }
  }

  private async applyEverywhere(page: RecordedEvent[]): Promise<boolean> {
    let failed = false;
    for (const projection of this.projections) {
      try {
        await applyPageOrPark(projection, page, this.parking);
        this.failingSince.delete(projection.name);
      } catch (error) {
        failed = true;
        if (!this.failingSince.has(projection.name)) this.failingSince.set(projection.name, this.now());
        this.onError(projection.name, error);
      }
    }
    return failed;
  }
}
