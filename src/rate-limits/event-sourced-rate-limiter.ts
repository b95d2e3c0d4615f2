// Admits a request with a token of the budget slice this replica holds (no I/O), leasing the next slice
// through a conditional append when it has none, then records the admission as `RequestAdmitted`
// (awaited: if it cannot be recorded the request gets 503). Slices of one window never sum past the
// limit, whatever the number of replicas (docs/rate-limits.md).
import type { CallerContext } from '../access/access.types';
import { ApiError } from '../common/api-error';
import type { EventStore } from '../event-store/event-store.port';
import { eventIdFor, requestStreamId } from '../event-store/event-ids';
import { writeFailureRefusal } from '../event-store/store-writes-failing';
import type { RequestAdmittedV1 } from './rate-limit.events';
import type { BackgroundService } from '../common/background-service';
import type { RateLimitProjection } from './rate-limit.projection';
import { AdmissionDecision, RateLimiter } from './rate-limiter.port';
import { SliceLeaser } from './slice-leaser';
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';

/** Known failing writes mean billing could not be recorded either, so the request is refused as such. */
function refusalFor(error: unknown): ApiError {
  return writeFailureRefusal(error, { code: 'rate_limit_unavailable', message: 'The rate-limit service is temporarily unavailable.' });
}

export class EventSourcedRateLimiter extends RateLimiter implements BackgroundService {
  readonly name = 'rate_limits';
  private started = false;
  private readonly leaser: SliceLeaser;

  constructor(
    private readonly store: EventStore,
    private readonly projection: RateLimitProjection,
    releaseIntervalMs = 1000,
    /** Context `rate-limits`. */
    private readonly logger: GatewayLog = SILENT_LOG,
  ) {
    super();
    this.leaser = new SliceLeaser(store, projection, releaseIntervalMs, logger);
  }

  /** Restores the ledgers' snapshot; the ProjectionHub then brings them up to date and keeps them so. */
  start(): void {
    this.projection.start();
    this.leaser.start();
    this.started = true;
  }

  /** Slice releases the store refused since start (each retried on the next tick). */
  releaseFailures(): number {
    return this.leaser.releaseFailures();
  }

  ready(): boolean {
    return this.started;
  }

  async admit(caller: CallerContext, requestId: string, endpoint: string): Promise<AdmissionDecision> {
    const limit = caller.organization.rate_limit;
    const organizationId = caller.organizationId;
    let now = this.projection.now();
    let slice = this.projection.take(organizationId, now);
    while (slice === null) {
      const outcome = await this.leaser.lease(organizationId, limit).catch((error: unknown) => {
        this.logger.error({ err: error }, `rate-limit slice of ${organizationId} not leased (${(error as Error).message}); answering 503`);
        throw refusalFor(error);
      });
      if (outcome.refused) return { admitted: false, limit: limit.requests, remaining: 0, retryAfterSeconds: outcome.retryAfterSeconds };
      now = this.projection.now();
      slice = this.projection.take(organizationId, now);
    }
    const remaining = this.projection.remaining(organizationId, limit, now, slice);
    const event: RequestAdmittedV1 = { requestId, organizationId, keyId: caller.keyId, endpoint, admittedAt: now };
    try {
      // The request's stream begins here: 'no_stream' says so (the store need not look the stream up), and
      // a retry of this append is still a no-op (same event id).
      await this.store.append(requestStreamId(requestId), [
        { id: eventIdFor(requestId, 'RequestAdmitted'), type: 'RequestAdmitted', data: event, metadata: { schemaVersion: 1 } },
      ], { expectedRevision: 'no_stream' });
    } catch (error) {
      this.projection.giveBack(organizationId, slice, now);
      throw refusalFor(error);
    }
    return { admitted: true, limit: limit.requests, remaining, retryAfterSeconds: 0 };
  }

  /** Gives the unused tokens back before the final snapshot, so the other replicas can use them at once. */
  async stop(): Promise<void> {
    await this.leaser.stop();
    this.projection.stop();
  }
}
