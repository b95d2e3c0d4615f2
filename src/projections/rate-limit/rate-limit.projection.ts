// In-memory rate-limit counters fed by RequestAdmitted events of every replica (through the
// ProjectionHub). Start-up restores a small snapshot (the logs plus the position they reflect) from
// read-models.sqlite, so only the events after it are replayed, not the whole store; the snapshot is
// rewritten periodically and on stop.
import { Logger } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { comparePositions, type RecordedEvent } from '../../event-store/event-store.port';
import type { Projection } from '../projection-runner';
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
  type StoredRateLimitSnapshot,
  type RateLimitState,
} from './rate-limit.rules';
import { decodeSnapshot, encodeSnapshot } from './rate-limit.snapshot-codec';

const logger = new Logger('rate-limits');

export interface RateLimitProjectionOptions {
  limitFor: (organizationId: string) => RateLimitConfig;
  snapshotIntervalMs?: number;
  now?: () => number;
}

interface SnapshotRow {
  position: string | null;
  /** Binary (rate-limit.snapshot-codec.ts); JSON text when written by an earlier version. */
  state: string | Buffer;
}

export class RateLimitProjection implements Projection {
  readonly name = 'rate-limit';
  private state: RateLimitState;
  private position: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly readSnapshot: Database.Statement<[], SnapshotRow>;
  private readonly writeSnapshot: Database.Statement<[string | null, Buffer, number]>;

  constructor(db: Database.Database, private readonly options: RateLimitProjectionOptions) {
    this.now = options.now ?? Date.now;
    this.state = createRateLimitState(options.limitFor);
    db.exec(`CREATE TABLE IF NOT EXISTS rate_limit_snapshot (
      id INTEGER PRIMARY KEY CHECK (id = 1), position TEXT, state TEXT NOT NULL, saved_at_ms INTEGER NOT NULL)`);
    this.readSnapshot = db.prepare('SELECT position, state FROM rate_limit_snapshot WHERE id = 1');
    this.writeSnapshot = db.prepare(`INSERT INTO rate_limit_snapshot (id, position, state, saved_at_ms) VALUES (1, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET position = excluded.position, state = excluded.state, saved_at_ms = excluded.saved_at_ms`);
  }

  /** Restores the snapshot; the events after its position then arrive through apply/applyPage. */
  start(): void {
    this.restoreSnapshot();
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

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.saveSnapshot();
  }

  /** Delivered admissions still in their window; local ones not delivered yet come back from the store after `position`. */
  saveSnapshot(): void {
    pruneExpired(this.state, this.now());
    this.writeSnapshot.run(this.position, encodeSnapshot(toSnapshot(this.state)), this.now());
  }

  private restoreSnapshot(): void {
    const row = this.readSnapshot.get();
    if (!row) return;
    let stored: StoredRateLimitSnapshot;
    try {
      stored = decodeSnapshot(row.state);
    } catch (error) {
      // Without a usable snapshot the counters are rebuilt from the whole store, which is slower but exact.
      logger.warn({ err: error }, 'rate-limit snapshot unreadable; replaying the store');
      return;
    }
    this.state = pruneExpired(fromSnapshot(this.options.limitFor, stored), this.now());
    this.position = row.position;
  }

  apply(event: RecordedEvent): void {
    if (this.position !== null && comparePositions(event.position, this.position) <= 0) return;
    if (event.type === 'RequestAdmitted') evolve(this.state, event.data as RequestAdmittedV1);
    this.position = event.position;
  }

  applyPage(events: readonly RecordedEvent[]): void {
    for (const event of events) this.apply(event);
  }
}
