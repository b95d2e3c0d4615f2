// Turns a page of store events into Kafka messages. An event that cannot become a message (no
// organization to key it by, data that cannot be serialised) can never be published, however often
// the relay retries, so it is parked: the page's other messages go out and the checkpoint moves past it.
// Mapping is pure, so any error here is the event's; broker and store failures happen elsewhere and are retried.
import type { RecordedEvent } from '../../event-store/event-store.port';
import { toOutgoingMessage, type OutgoingMessage } from '../billing-topics';
import type { ParkedEvent } from '../../projections/parking/parked-events';

/** The relay's record of an event it could not turn into a message: a projection's parked row, without acknowledgement. */
export type ParkedRelayEvent = Omit<ParkedEvent, 'projection' | 'acknowledgedAt'>;

export interface RelayBatch {
  messages: OutgoingMessage[];
  parked: ParkedRelayEvent[];
}

export function relayBatchOf(events: readonly RecordedEvent[], topicPrefix: string | undefined, now = new Date()): RelayBatch {
  const messages: OutgoingMessage[] = [];
  const parked: ParkedRelayEvent[] = [];
  for (const event of events) {
    try {
      const message = toOutgoingMessage(event, topicPrefix);
      if (message !== null) messages.push(message);
    } catch (error) {
      parked.push(parkedRecordOf(event, error, now));
    }
  }
  return { messages, parked };
}

function parkedRecordOf(event: RecordedEvent, error: unknown, now: Date): ParkedRelayEvent {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { position: event.position, eventId: event.id, eventType: String(event.type), streamId: event.streamId, reason, parkedAt: now.toISOString() };
}
