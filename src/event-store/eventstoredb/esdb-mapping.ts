// Translation between the port's types and @eventstore/db-client's: positions, revisions, events.
import {
  ANY,
  AccessDeniedError,
  MaxAppendSizeExceededError,
  StreamDeletedError,
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

/** System events (`$`-prefixed types or streams) and link events are the database's, not ours (a second guard behind the server-side stream filter). */
export function isUserEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): boolean {
  const event = resolved.event;
  return event !== undefined && !event.type.startsWith('$') && !event.streamId.startsWith('$');
}

/**
 * Errors after which the server certainly wrote nothing (refused for good); anything else an append
 * throws (deadline exceeded, unavailable, cancelled, a dropped connection) may follow a commit.
 */
export function isDefinitelyNotWritten(error: unknown): boolean {
  return (
    error instanceof AccessDeniedError ||
    error instanceof StreamDeletedError ||
    error instanceof MaxAppendSizeExceededError ||
    // Raised before anything is sent: the events could not be serialized.
    error instanceof TypeError ||
    error instanceof RangeError
  );
}

type StoredEsdbEvent = NonNullable<(ResolvedEvent | AllStreamResolvedEvent)['event']>;

/**
 * A stored event as the port's RecordedEvent. `data` and `metadata` are decoded on first access: an
 * event that is not JSON (written by another tool) then fails in the consumer that reads it, which
 * parks it (a SyntaxError is poison, src/projections/parking) instead of stalling every reader here.
 */
class EsdbRecordedEvent implements RecordedEvent {
  readonly id: string;
  readonly type: string;
  readonly streamId: string;
  readonly revision: number;
  readonly position: string;
  readonly recordedAt: string;
  readonly #event: StoredEsdbEvent;

  constructor(event: StoredEsdbEvent, position: string) {
    this.id = event.id;
    this.type = event.type;
    this.streamId = event.streamId;
    this.revision = Number(event.revision);
    this.position = position;
    this.recordedAt = event.created.toISOString();
    this.#event = event;
  }

  get data(): unknown {
    return decodeJson(this.#event.isJson, this.#event.data, `data of event ${this.id}`);
  }

  get metadata(): Record<string, unknown> {
    return (decodeJson(true, this.#event.metadata ?? {}, `metadata of event ${this.id}`) ?? {}) as Record<string, unknown>;
  }
}

function decodeJson(isJson: boolean, value: unknown, what: string): unknown {
  if (!(value instanceof Uint8Array)) return value;
  if (value.length === 0 && !isJson) throw new SyntaxError(`${what} is empty binary, not JSON`);
  try {
    return JSON.parse(Buffer.from(value).toString('utf8')) as unknown;
  } catch (error) {
    throw new SyntaxError(`${what} is not JSON (${(error as Error).message})`);
  }
}

export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent {
  const event = resolved.event!;
  if (!event.position) throw new Error(`event ${event.id} carries no $all position`);
  return new EsdbRecordedEvent(event, encodePosition(event.position));
}
