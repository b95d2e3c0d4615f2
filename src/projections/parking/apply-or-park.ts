// Applies a page to a projection; when the page fails because of an event the projection cannot
// handle, applies the page one event at a time and parks the poison ones: recorded, logged once,
// counted, and passed over by applying a placeholder at the same position, which every projection
// ignores except to move its checkpoint. Infrastructure failures are rethrown for the caller to retry.
import type { RecordedEvent } from '../../event-store/event-store.port';
import { SILENT_LOG, type GatewayLog } from '../../common/gateway-log';
import type { Projection } from '../projection';
import { classifyFailure, reasonOf } from './event-contract-error';
import type { ParkedEvents } from './parked-events';

/** The type of the placeholder applied in place of a parked event; no projection folds it. */
export const PARKED_PLACEHOLDER_TYPE = '$parked';

/** Where projections park events: the durable table plus what this process parked since start. */
export class ParkingLot {
  private readonly parkedSinceStart = new Map<string, number>();

  /** `logger`: context `projections`. */
  constructor(readonly records: ParkedEvents, private readonly logger: GatewayLog = SILENT_LOG) {}

  /** Records the event; logs and counts it only the first time it is parked by this projection. */
  park(projection: string, event: RecordedEvent, error: unknown): void {
    const reason = reasonOf(error);
    if (!this.records.park(projection, event, reason)) return;
    this.parkedSinceStart.set(projection, (this.parkedSinceStart.get(projection) ?? 0) + 1);
    this.logger.warn(`projection ${projection} parked event ${event.id} (${event.type} at ${event.position} in ${event.streamId}): ${reason}`);
  }

  countsSinceStart(): Record<string, number> {
    return Object.fromEntries(this.parkedSinceStart);
  }
}

export function placeholderFor(event: RecordedEvent): RecordedEvent {
  return { ...event, type: PARKED_PLACEHOLDER_TYPE, data: null, metadata: {} };
}

/** The page as usual (one transaction); only after a poison failure, event by event. */
export async function applyPageOrPark(projection: Projection, page: readonly RecordedEvent[], parking: ParkingLot | null): Promise<void> {
  try {
    await projection.applyPage(page);
    return;
  } catch (error) {
    if (parking === null || classifyFailure(error) !== 'poison') throw error;
  }
  for (const event of page) await applyOneOrPark(projection, event, parking);
}

async function applyOneOrPark(projection: Projection, event: RecordedEvent, parking: ParkingLot): Promise<void> {
  try {
    await projection.apply(event);
  } catch (error) {
    if (classifyFailure(error) !== 'poison') throw error;
    // Recorded before the checkpoint moves: a crash in between parks the same event again, a no-op.
    parking.park(projection.name, event, error);
    await projection.apply(placeholderFor(event));
  }
}
