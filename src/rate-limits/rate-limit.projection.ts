// In-memory rate-limit ledgers fed by the lease streams' events of every replica (through the
// ProjectionHub), plus this replica's held slices. Start-up restores a small snapshot (the ledgers plus
// the position they reflect) from read-models.sqlite, so only the events after it are replayed; the
// snapshot is rewritten periodically and on stop. A failing snapshot write (disk full) is logged,
// counted and tried again on the next tick: it never escapes the timer.
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import type Database from 'better-sqlite3';
import { comparePositions, type RecordedEvent } from '../event-store/event-store.port';
import type { Projection } from '../projections/projection-runner';
import type { RateLimitConfig } from '../access/access.types';
import {
  createLedgerState,
  evolveLedger,
  ledgerOf,
  leaseStreamId,
  LEASE_STREAM_PREFIX,
  type LeaseEvent,
  type LeasePlan,
  type LedgerState,
  type HeldSlice,
  type SliceReleasedV1,
} from './rate-limit-ledger.rules';
import { closeExpired, holdLeased, planLease, remainingFor, returnToken, takeToken, unreleased } from './rate-limit-slices.rules';
import { decodeLedgers, encodeLedgers } from './rate-limit-ledger.snapshot';
import { SnapshotRow } from '../projections/snapshot-row';
import { SnapshotSchedule } from '../projections/snapshot-schedule';

export interface RateLimitProjectionOptions {
  /** Unique per process start: a restarted replica treats the slices of its previous life as anyone's. */
  replicaId: string;
  snapshotIntervalMs?: number;
  now?: () => number;
  /**
   * Told of a malformed lease event delivered by the store (the gateway parks it, docs/projections.md).
   * The event is not thrown: it must still advance the stream's revision, or no conditional lease would match.
   */
  onMalformed?: (event: RecordedEvent, reason: string) => void;
  /** Context `rate-limits`. */
  log?: GatewayLog;
}

export class RateLimitProjection implements Projection {
  readonly name = 'rate-limit';
  private state: LedgerState;
  private position: string | null = null;
  private failedSnapshots = 0;
  private malformed = 0;
  readonly now: () => number;
  private readonly snapshot: SnapshotRow;
  private readonly logger: GatewayLog;
  /** Every tick (5 s by default), whatever moved: held slices change the ledgers without moving the position. */
  private readonly schedule: SnapshotSchedule;

  constructor(db: Database.Database, private readonly options: RateLimitProjectionOptions) {
    this.now = options.now ?? Date.now;
    this.logger = options.log ?? SILENT_LOG;
    this.state = createLedgerState(options.replicaId);
    this.snapshot = new SnapshotRow(db, 'rate_limit_ledger_snapshot');
    this.schedule = new SnapshotSchedule(
      { moved: () => true, save: () => this.trySaveSnapshot() },
      { everyChanges: Infinity, everyMs: options.snapshotIntervalMs ?? 5000 },
    );
  }

  /** Restores the snapshot; the events after its position then arrive through apply/applyPage. */
  start(): void {
    this.restoreSnapshot();
    this.schedule.start();
  }

  get replicaId(): string {
    return this.state.replicaId;
  }

  /** Snapshot writes that failed since start (each is retried on the next tick). */
  snapshotFailures(): number {
    return this.failedSnapshots;
  }

  /** A token of the slice this replica holds, or null (then a lease is needed). No I/O. */
  take(organizationId: string, now: number): HeldSlice | null {
    return takeToken(this.state, organizationId, now);
  }

  giveBack(organizationId: string, slice: HeldSlice, takenAt: number): void {
    returnToken(this.state, organizationId, slice, takenAt);
  }

  remaining(organizationId: string, limit: RateLimitConfig, now: number, held: HeldSlice | null): number {
    return remainingFor(this.state, organizationId, limit, now, held);
  }

  plan(organizationId: string, limit: RateLimitConfig, sliceId: string): LeasePlan {
    return planLease(this.state, organizationId, limit, this.now(), sliceId);
  }

  revisionOf(organizationId: string): number {
    return ledgerOf(this.state, organizationId).revision;
  }

  /** Lease-stream events read directly (a conflict's catch-up, or this replica's own append): folded, the position untouched. */
  foldLeaseEvents(organizationId: string, events: readonly LeaseEvent[]): void {
    for (const event of events) this.fold(organizationId, event);
  }

  /** Lease events that could not be read (ignored, see evolveLedger). */
  malformedEvents(): number {
    return this.malformed;
  }

  private fold(organizationId: string, event: LeaseEvent): boolean {
    if (evolveLedger(this.state, organizationId, event) !== 'malformed') return true;
    this.malformed++;
    this.logger.error(`rate-limit lease event ${event.type} at revision ${event.revision} of ${leaseStreamId(organizationId)} is malformed; ignored`);
    return false;
  }

  /** After a lease append: holds the new slice. */
  hold(organizationId: string, sliceId: string, bucketMs: number): void {
    holdLeased(this.state, organizationId, sliceId, bucketMs);
  }

  /** Closes the held slices whose time is up (all when stopping); returns the releases still to append, per organization. */
  releasesDue(everything = false): Map<string, SliceReleasedV1[]> {
    const now = this.now();
    return new Map(closeExpired(this.state, now, everything).map((organizationId) => [organizationId, unreleased(this.state, organizationId, now)]));
  }

  /** The releases were appended: their slices now occupy only what was used (the stream event will say the same). */
  released(releases: readonly SliceReleasedV1[]): void {
    for (const release of releases) {
      const ledger = ledgerOf(this.state, release.organizationId);
      const slice = ledger.slices.find((candidate) => candidate.sliceId === release.sliceId);
      if (slice) slice.usage = release.usage;
      ledger.freeUntil = -Infinity;
    }
  }

  /** Position of the last event folded in through the subscription (what the next snapshot will record). */
  checkpoint(): string | null {
    return this.position;
  }

  stop(): void {
    this.schedule.stop();
  }

  /** The ledgers (not the held slices: a restart is a new replica) and the subscription's position. */
  saveSnapshot(): void {
    this.snapshot.save(this.position, encodeLedgers(this.state), this.now());
  }

  /** Runs from a timer and at shutdown: a failure must not end the process; the next tick writes a fresher one anyway. */
  private trySaveSnapshot(): boolean {
    try {
      this.saveSnapshot();
      return true;
    } catch (error) {
      this.failedSnapshots++;
      this.logger.error({ err: error, failures: this.failedSnapshots }, `rate-limit snapshot not written (${(error as Error).message}); retrying on the next tick`);
      return false;
    }
  }

  private restoreSnapshot(): void {
    const row = this.snapshot.load();
    if (!row) return;
    try {
      this.state = decodeLedgers(this.state.replicaId, row.state);
    } catch (error) {
      // Without a usable snapshot the ledgers are rebuilt from the whole store, which is slower but exact.
      this.logger.warn({ err: error }, 'rate-limit snapshot unreadable; replaying the store');
      return;
    }
    this.position = row.position;
  }

  apply(event: RecordedEvent): void {
    if (this.position !== null && comparePositions(event.position, this.position) <= 0) return;
    if (event.streamId.startsWith(LEASE_STREAM_PREFIX) && !this.fold(event.streamId.slice(LEASE_STREAM_PREFIX.length), event)) {
      this.options.onMalformed?.(event, `malformed ${event.type} in ${event.streamId} at revision ${event.revision}`);
    }
    this.position = event.position;
  }

  applyPage(events: readonly RecordedEvent[]): void {
    for (const event of events) this.apply(event);
  }
}
