// In-memory rate-limit counters fed by RequestAdmitted events of every replica. Start-up restores a
// small snapshot (the logs plus the position they reflect) from read-models.sqlite and replays only the
// events after it, instead of the whole store; the snapshot is rewritten periodically and on stop.
import type Database from 'better-sqlite3';
import type { EventStore, RecordedEvent, Subscription } from '../../event-store/event-store.port';
import type { RateLimitConfig } from '../../access/access.types';
import type { RequestAdmittedV1 } from '../../billing/billing.events';
import {
  admitLocally,
  createRateLimitState,
  decideAdmission,
  evolve,
  fromSnapshot,
  pruneExpired,
  toSnapshot,
  withdraw,
  type AdmissionDecision,
  type RateLimitSnapshot,
  type RateLimitState,
} from './rate-limit.rules';

export interface RateLimitProjectionOptions {
  limitFor: (organizationId: string) => RateLimitConfig;
  snapshotIntervalMs?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

interface SnapshotRow {
  position: string | null;
  state: string;
}

export class RateLimitProjection {
  private state: RateLimitState;
  private position: string | null = null;
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly readSnapshot: Database.Statement<[], SnapshotRow>;
  private readonly writeSnapshot: Database.Statement<[string | null, string, number]>;

  constructor(private readonly store: EventStore, db: Database.Database, private readonly options: RateLimitProjectionOptions) {
    this.now = options.now ?? Date.now;
    this.state = createRateLimitState(options.limitFor);
    db.exec(`CREATE TABLE IF NOT EXISTS rate_limit_snapshot (
      id INTEGER PRIMARY KEY CHECK (id = 1), position TEXT, state TEXT NOT NULL, saved_at_ms INTEGER NOT NULL)`);
    this.readSnapshot = db.prepare('SELECT position, state FROM rate_limit_snapshot WHERE id = 1');
    this.writeSnapshot = db.prepare(`INSERT INTO rate_limit_snapshot (id, position, state, saved_at_ms) VALUES (1, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET position = excluded.position, state = excluded.state, saved_at_ms = excluded.saved_at_ms`);
  }

  /** Restores the snapshot, replays what follows it, then follows the store live. */
  async start(): Promise<void> {
    this.restoreSnapshot();
    for (let page = await this.nextPage(); page.length > 0; page = await this.nextPage()) page.forEach((event) => this.apply(event));
    this.saveSnapshot();
    this.subscription = this.store.subscribeToAll({ after: this.position, onError: this.options.onError }, (event) => this.apply(event));
    this.timer = setInterval(() => this.saveSnapshot(), this.options.snapshotIntervalMs ?? 5000);
    this.timer.unref();
  }

  /** Admits or refuses one request of `organizationId`; an admission counts immediately on this replica. */
  admit(organizationId: string, limit: RateLimitConfig, requestId: string): AdmissionDecision {
    return admitLocally(this.state, organizationId, limit, requestId, this.now());
  }

  /** Takes back an admission whose RequestAdmitted event could not be appended (the request gets 503). */
  withdraw(organizationId: string, requestId: string): void {
    withdraw(this.state, organizationId, requestId);
  }

  /** Position of the last event folded in (what the next snapshot will record). */
  checkpoint(): string | null {
    return this.position;
  }

  /** What `admit` would answer now, without recording anything. */
  decide(organizationId: string, limit: RateLimitConfig): AdmissionDecision {
    return decideAdmission(this.state, organizationId, limit, this.now());
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.subscription?.stop();
    this.subscription = null;
    this.saveSnapshot();
  }

  /** Admissions still in their window; local ones whose events are not delivered yet are included (and deduplicated on delivery). */
  saveSnapshot(): void {
    pruneExpired(this.state, this.now());
    this.writeSnapshot.run(this.position, JSON.stringify(toSnapshot(this.state)), this.now());
  }

  private restoreSnapshot(): void {
    const row = this.readSnapshot.get();
    if (!row) return;
    this.state = pruneExpired(fromSnapshot(this.options.limitFor, JSON.parse(row.state) as RateLimitSnapshot), this.now());
    this.position = row.position;
  }

  private nextPage(): Promise<RecordedEvent[]> {
    return this.store.readAll({ after: this.position, maxCount: 1024 });
  }

  private apply(event: RecordedEvent): void {
    if (event.type === 'RequestAdmitted') evolve(this.state, event.data as RequestAdmittedV1);
    this.position = event.position;
  }
}
