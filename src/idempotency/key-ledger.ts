// The key's stream in the event store: read and fold it, claim it conditionally, renew the lease,
// record or release the outcome. Every write names the revision it follows, so two replicas acting
// on the same key at once cannot both succeed.
import { EventStore, WrongExpectedRevisionError, type ExpectedRevision, type NewEvent } from '../event-store/event-store.port';
import { eventIdFor, requestStreamId } from '../event-store/event-ids';
import type { CostPricedV1 } from '../billing/billing.events';
import { EVENT_SCHEMA_VERSION } from '../event-store/gateway-event-types';
import type { IdempotencyKeyClaimedV1, IdempotencyKeyReleasedV1, IdempotentResponseRecordedV1 } from './idempotency.events';
import { foldKey, type KeyState } from './key-state';
import type { KeyCharge } from './charge-once';

const METADATA = { schemaVersion: EVENT_SCHEMA_VERSION };

export class KeyLedger {
  constructor(private readonly store: EventStore) {}

  async read(streamId: string): Promise<KeyState> {
    return foldKey(await this.store.readStream(streamId));
  }

  /**
   * A key never seen: the claim at `no_stream`, without reading the stream first (nearly every key is new).
   * Rejects with WrongExpectedRevisionError whenever the stream exists, its events expired included: the
   * caller then reads it and decides, as for any key used before.
   */
  async claimUnread(streamId: string, claim: IdempotencyKeyClaimedV1): Promise<number> {
    return (await this.store.append(streamId, [claimEvent(claim, 0)], { expectedRevision: 'no_stream' })).nextExpectedRevision;
  }

  /** Appends the claim; rejects with WrongExpectedRevisionError when another request got there first. */
  async claim(streamId: string, claim: IdempotencyKeyClaimedV1, expectedRevision: ExpectedRevision, renewal = 0): Promise<number> {
    const event = claimEvent(claim, renewal);
    try {
      return (await this.store.append(streamId, [event], { expectedRevision })).nextExpectedRevision;
    } catch (error) {
      const revision = await this.expiredRevision(streamId, expectedRevision, error);
      if (revision === null) throw error;
      // Conditional still: of two requests claiming the expired key at once, one append succeeds.
      return (await this.store.append(streamId, [event], { expectedRevision: revision })).nextExpectedRevision;
    }
  }

  /**
   * A key stream read as empty whose `no_stream` claim was refused with a revision: its events all expired
   * (`$maxAge`, on a store that has it), so the key is free and is claimed at that revision. Null otherwise.
   */
  private async expiredRevision(streamId: string, expected: ExpectedRevision, error: unknown): Promise<number | null> {
    if (!this.store.setStreamMaxAge || expected !== 'no_stream' || !(error instanceof WrongExpectedRevisionError)) return null;
    if (typeof error.actual !== 'number') return null;
    return (await this.store.readStream(streamId)).length === 0 ? error.actual : null;
  }

  /** Whether the store forgets a key's events by itself (`$maxAge`); SQLite and PostgreSQL keep them. */
  get expiresStreams(): boolean {
    return this.store.setStreamMaxAge !== undefined;
  }

  /** The key's events are forgotten by the store this long after each was written (docs/idempotency.md). */
  async expireAfter(streamId: string, maxAgeSeconds: number): Promise<void> {
    await this.store.setStreamMaxAge?.(streamId, maxAgeSeconds);
  }

  async record(streamId: string, outcome: IdempotentResponseRecordedV1, expectedRevision: number): Promise<void> {
    await this.append(streamId, outcome.requestId, 'IdempotentResponseRecorded', outcome, expectedRevision);
  }

  async release(streamId: string, released: IdempotencyKeyReleasedV1, expectedRevision: number): Promise<void> {
    await this.append(streamId, released.requestId, 'IdempotencyKeyReleased', released, expectedRevision);
  }

  /** The charge of the first of these requests that was charged (a claimant that died after its charge). */
  async chargeOf(requestIds: readonly string[]): Promise<KeyCharge | null> {
    for (const requestId of requestIds) {
      const charged = (await this.store.readStream(requestStreamId(requestId))).find((event) => event.type === 'CostPriced');
      if (charged) return { requestId, costUsdMicros: (charged.data as CostPricedV1).costUsdMicros };
    }
    return null;
  }

  private async append(streamId: string, requestId: string, type: string, data: unknown, expectedRevision: number): Promise<void> {
    const event: NewEvent = { id: eventIdFor(requestId, type), type, data, metadata: METADATA };
    await this.store.append(streamId, [event], { expectedRevision });
  }
}

/** The claim, or its lease's renewal (a distinct event id per renewal). */
function claimEvent(claim: IdempotencyKeyClaimedV1, renewal: number): NewEvent {
  const type = 'IdempotencyKeyClaimed';
  return { id: eventIdFor(claim.requestId, renewal === 0 ? type : `${type}/${renewal}`), type, data: claim, metadata: METADATA };
}
