// Runs a projection as a checkpointed consumer of the store. The projection owns its checkpoint and
// stores it atomically with its effects, and ignores events at or before it; that is what makes
// re-delivery, a crash between two events and a second process sharing the read model all harmless.
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import { applyPageOrPark, type ParkingLot } from './parking/apply-or-park';
import type { Projection } from './projection';

export type { Projection } from './projection';

export type ProjectionErrorHandler = (projection: string, error: unknown, event: RecordedEvent | null) => void;

/** Subscribes from the stored checkpoint; the subscription retries an event whose apply failed. */
export function startProjection(store: EventStore, projection: Projection, onError?: ProjectionErrorHandler): Subscription {
  return store.subscribeToAll(
    { after: projection.checkpoint(), onError: (error, event) => onError?.(projection.name, error, event) },
    (event) => projection.apply(event),
  );
}

/**
 * Applies every stored event after the checkpoint, then returns how many were read (start-up, rebuilds,
 * CLIs, tests). With a parking lot an event the projection rejects is parked instead of stopping it.
 */
export async function catchUpProjection(store: EventStore, projection: Projection, pageSize = 512, parking: ParkingLot | null = null): Promise<number> {
  let read = 0;
  for (;;) {
    const page = await store.readAll({ after: projection.checkpoint(), maxCount: pageSize });
    if (page.length === 0) return read;
    await applyPageOrPark(projection, page, parking);
    read += page.length;
  }
}

/** True when no stored event lies after the projection's checkpoint (readiness, lag checks). */
export async function isCaughtUp(store: EventStore, projection: Projection): Promise<boolean> {
  return (await store.readAll({ after: projection.checkpoint(), maxCount: 1 })).length === 0;
}
