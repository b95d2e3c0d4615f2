// The store side of reconciliation: every CostPriced and UpstreamAttemptRecorded in the event store, in one
// readAll replay.
import { comparePositions, type EventStore, type RecordedEvent } from '../../event-store/event-store.port';
import type { CostPricedV1 } from '../../billing/billing.events';
import type { UpstreamAttemptRecordedV1 } from '../../routing/routing.events';
import { attemptRecordOf, type AttemptRecord } from './attempt-totals';
import type { CostRecord } from './cost-totals';

const PAGE_SIZE = 1_000;

export interface StoredCostRecord extends CostRecord {
  position: string;
}

function toCostRecord(event: RecordedEvent): StoredCostRecord {
  const data = event.data as CostPricedV1;
  return {
    eventId: event.id,
    organizationId: data.organizationId,
    occurredAt: data.occurredAt,
    costUsdMicros: data.costUsdMicros,
    position: event.position,
  };
}

/** The records a consumer that has applied everything up to `checkpoint` has seen. */
export function recordsUpTo(records: StoredCostRecord[], checkpoint: string | null): StoredCostRecord[] {
  if (checkpoint === null) return [];
  return records.filter((record) => comparePositions(record.position, checkpoint) <= 0);
}

export interface StoreRecords {
  costs: StoredCostRecord[];
  attempts: AttemptRecord[];
}

/** Replays up to the head as it was when the replay started, so concurrent appends do not prolong it. */
export async function readStoreRecords(store: EventStore): Promise<StoreRecords> {
  const head = await store.headPosition();
  const records: StoreRecords = { costs: [], attempts: [] };
  let after: string | null = null;
  while (head !== null) {
    const page = await store.readAll({ after, maxCount: PAGE_SIZE });
    const upToHead = page.filter((event) => comparePositions(event.position, head) <= 0);
    for (const event of upToHead) {
      if (event.type === 'CostPriced') records.costs.push(toCostRecord(event));
      if (event.type === 'UpstreamAttemptRecorded') records.attempts.push(attemptRecordOf(event.id, event.data as UpstreamAttemptRecordedV1));
    }
    if (upToHead.length < PAGE_SIZE) break;
    after = page[page.length - 1].position;
  }
  return records;
}
