// Translation between the port's types and @eventstore/db-client's: positions, revisions, events.
import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type CurrentRevision,
  type EventData,
  type JSONType,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { ExpectedRevision, NewEvent, RecordedEvent } from '../event-store.port';

/** `commit/prepare`, both decimal: totally ordered by comparePositions. */
export function encodePosition(position: Position): string {
  return `${position.commit}/${position.prepare}`;
}

export function decodePosition(position: string): Position {
  const match = /^(\d+)\/(\d+)$/.exec(position);
  if (!match) throw new Error(`not an EventStoreDB position: ${position}`);
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

export function fromEsdbCurrentRevision(current: CurrentRevision): number | 'no_stream' {
  return current === NO_STREAM ? 'no_stream' : Number(current);
}

export function toEventData(event: NewEvent): EventData {
  return jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata ?? {} });
}

/** System events (`$`-prefixed types or streams) and link events are the database's, not ours. */
export function isUserEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): boolean {
  const event = resolved.event;
  return event !== undefined && !event.type.startsWith('$') && !event.streamId.startsWith('$');
}

export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent {
  const event = resolved.event!;
  if (!event.position) throw new Error(`event ${event.id} carries no $all position`);
  return {
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: encodePosition(event.position),
    data: event.isJson ? event.data : JSON.parse(Buffer.from(event.data).toString('utf8')),
    metadata: (event.metadata ?? {}) as Record<string, unknown>,
    recordedAt: event.created.toISOString(),
  };
}
