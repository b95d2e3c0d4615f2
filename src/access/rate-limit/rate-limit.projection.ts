// The rate-limit read model: per organization, the admissions of the current window, folded from
// `RequestAdmitted` events. Deduplicates by request id, since a local admission is applied at once
// and then arrives again through the subscription.
import type { RateLimitConfig } from '../access.types';
import type { RequestAdmittedV1 } from '../../billing/billing.events';
import type { EventStore } from '../../event-store/event-store.port';
import { decideAdmission, pruneLog, recordAdmission, AdmissionLog } from './sliding-window';
import type { AdmissionDecision } from './rate-limiter.port';

/** The longest window any organization may configure; older admissions never matter. */
const MAX_WINDOW_MS = 24 * 3600 * 1000;
/** A local admission's own event comes back through the subscription well within this. */
const ECHO_DEDUP_MS = 5 * 60 * 1000;

export class RateLimitProjection {
  private readonly logs = new Map<string, AdmissionLog>();
  private readonly seen = new Map<string, number>();

  decide(organizationId: string, limit: RateLimitConfig, nowMs: number): AdmissionDecision {
    const log = pruneLog(this.logs.get(organizationId) ?? [], limit.window_seconds * 1000, nowMs);
    this.logs.set(organizationId, log);
    return decideAdmission(log, limit, nowMs);
  }

  apply(event: RequestAdmittedV1): void {
    if (this.seen.has(event.requestId)) return;
    this.seen.set(event.requestId, event.admittedAt);
    this.logs.set(event.organizationId, recordAdmission(this.logs.get(event.organizationId) ?? [], event.admittedAt));
    if (this.seen.size > 10_000) this.compact(event.admittedAt);
  }

  /** Undoes a local admission whose event could not be recorded. */
  forget(event: RequestAdmittedV1): void {
    this.seen.delete(event.requestId);
    const log = this.logs.get(event.organizationId) ?? [];
    const i = log.lastIndexOf(event.admittedAt);
    if (i >= 0) this.logs.set(event.organizationId, [...log.slice(0, i), ...log.slice(i + 1)]);
  }

  /** Replays the store and returns the position to follow live events from. */
  async catchUp(store: EventStore, nowMs: number): Promise<string | null> {
    let after: string | null = null;
    for (;;) {
      const page = await store.readAll({ after, maxCount: 4096 });
      if (page.length === 0) return after;
      for (const event of page) {
        if (event.type === 'RequestAdmitted' && (event.data as RequestAdmittedV1).admittedAt > nowMs - MAX_WINDOW_MS) {
          this.apply(event.data as RequestAdmittedV1);
        }
      }
      after = page[page.length - 1].position;
    }
  }

  private compact(nowMs: number): void {
    for (const [id, at] of this.seen) if (at <= nowMs - ECHO_DEDUP_MS) this.seen.delete(id);
  }
}
