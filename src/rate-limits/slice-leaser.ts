// Leases budget slices through conditional appends to the organization's lease stream, and appends
// the releases of slices this replica stopped using. One lease at a time per organization: the
// requests that find no token meanwhile wait for it instead of appending their own. The release timer
// never throws: a failed release is logged, counted and tried again on the next tick (until then the
// slice simply keeps occupying its whole count, which is safe).
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import { EventStore, type NewEvent } from '../event-store/event-store.port';
import { appendAtRevision } from '../event-store/append-at-revision';
import { eventIdFor, newRequestId } from '../event-store/event-ids';
import type { RateLimitConfig } from '../access/access.types';
import type { RateLimitProjection } from './rate-limit.projection';
import { leaseStreamId, SLICE_LEASED, SLICE_RELEASED, type SliceReleasedV1 } from './rate-limit-ledger.rules';

/** Conflicts in a row before the request gets 503: each one means another replica leased meanwhile. */
const MAX_CONFLICTS = 32;

export interface LeaseOutcome {
  refused: boolean;
  retryAfterSeconds: number;
}

export class SliceLeaser {
  private readonly inflight = new Map<string, Promise<LeaseOutcome>>();
  private timer: NodeJS.Timeout | null = null;
  private releasing: Promise<void> | null = null;
  private failedReleases = 0;

  constructor(
    private readonly store: EventStore,
    private readonly projection: RateLimitProjection,
    private readonly releaseIntervalMs: number,
    private readonly logger: GatewayLog = SILENT_LOG,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.releaseDue(false), this.releaseIntervalMs);
    this.timer.unref();
  }

  /** Release appends that failed since start (each is retried on the next tick). */
  releaseFailures(): number {
    return this.failedReleases;
  }

  /** Leases a slice for the organization, or joins the lease already under way. */
  lease(organizationId: string, limit: RateLimitConfig): Promise<LeaseOutcome> {
    let lease = this.inflight.get(organizationId);
    if (!lease) {
      lease = this.leaseNow(organizationId, limit).finally(() => this.inflight.delete(organizationId));
      this.inflight.set(organizationId, lease);
    }
    return lease;
  }

  /** Stops the timer and gives back every slice this replica holds. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled(this.inflight.values());
    await this.releasing;
    await this.releaseDue(true);
  }

  private leaseNow(organizationId: string, limit: RateLimitConfig): Promise<LeaseOutcome> {
    return appendAtRevision<LeaseOutcome>(this.store, {
      streamId: leaseStreamId(organizationId),
      maxAttempts: MAX_CONFLICTS,
      decide: () => {
        const sliceId = newRequestId();
        const plan = this.projection.plan(organizationId, limit, sliceId);
        if (plan.kind === 'refuse') return { answer: { refused: true, retryAfterSeconds: plan.retryAfterSeconds } };
        const events = [...plan.releases.map(releaseEvent), { id: eventIdFor(sliceId, SLICE_LEASED), type: SLICE_LEASED, data: plan.lease, metadata: { schemaVersion: 1 } }];
        const appended = (): LeaseOutcome => {
          this.projection.foldLeaseEvents(organizationId, events.map((event, index) => ({ type: event.type, revision: plan.expectedRevision + 1 + index, data: event.data })));
          this.projection.hold(organizationId, sliceId, plan.lease.bucketMs);
          return { refused: false, retryAfterSeconds: 0 };
        };
        return { events, expectedRevision: plan.expectedRevision, appended };
      },
      catchUp: () => this.catchUp(organizationId),
      exhausted: () => new Error(`rate-limit lease of ${organizationId}: ${MAX_CONFLICTS} conflicts in a row`),
    });
  }

  /** Reads what other replicas appended to the stream since the revision folded here. */
  private async catchUp(organizationId: string): Promise<void> {
    const events = await this.store.readStream(leaseStreamId(organizationId), { fromRevision: this.projection.revisionOf(organizationId) + 1 });
    this.projection.foldLeaseEvents(organizationId, events);
  }

  /** Appends the releases of the slices whose time is up (all held slices when stopping). */
  private releaseDue(everything: boolean): Promise<void> {
    if (this.releasing) return this.releasing;
    this.releasing = Promise.resolve()
      .then(() => this.appendReleases(this.projection.releasesDue(everything)))
      .catch((error: unknown) => this.countFailure(error, 'rate-limit slice releases not computed'))
      .finally(() => (this.releasing = null));
    return this.releasing;
  }

  private countFailure(error: unknown, what: string): void {
    this.failedReleases++;
    this.logger.error({ err: error, failures: this.failedReleases }, `${what} (${(error as Error).message}); retrying on the next tick`);
  }

  private async appendReleases(due: Map<string, SliceReleasedV1[]>): Promise<void> {
    for (const [organizationId, releases] of due) {
      try {
        // Unconditional: a release only lowers the occupancy, so it cannot take a grant past the limit.
        await this.store.append(leaseStreamId(organizationId), releases.map(releaseEvent));
        this.projection.released(releases);
      } catch (error) {
        this.countFailure(error, `rate-limit slice release of ${organizationId} not appended`);
      }
    }
  }
}

function releaseEvent(release: SliceReleasedV1): NewEvent {
  return { id: eventIdFor(release.sliceId, SLICE_RELEASED), type: SLICE_RELEASED, data: release, metadata: { schemaVersion: 1 } };
}
