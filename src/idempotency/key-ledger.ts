// The key's stream in the event store: read and fold it, claim it conditionally, renew the lease,
// record or release the outcome. Every write names the revision it follows, so two replicas acting
// on the same key at once cannot both succeed.
import { EventStore, type ExpectedRevision, type NewEvent } from '../event-store/event-store.port';
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

  /** Appends the claim; rejects with WrongExpectedRevisionError when another request got there first. */
  async claim(streamId: string, claim: IdempotencyKeyClaimedV1, expectedRevision: ExpectedRevision, renewal = 0): Promise<number> {
    const type = 'IdempotencyKeyClaimed';
    const id = eventIdFor(claim.requestId, renewal === 0 ? type : `${type}/${renewal}`);
    return (await this.store.append(streamId, [{ id, type, data: claim, metadata: METADATA }], { expectedRevision })).nextExpectedRevision;
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
