// The event store port. Adapters: SQLite (embedded default) and EventStoreDB/KurrentDB.
// One contract suite (event-store.contract.ts) runs against every adapter.

export interface NewEvent<T = unknown> {
  /** Deterministic id (uuid); re-appending the same id is a no-op, never a duplicate. */
  id: string;
  type: string;
  data: T;
  metadata?: Record<string, unknown>;
}

export interface RecordedEvent<T = unknown> {
  id: string;
  type: string;
  streamId: string;
  /** 0-based revision of the event within its stream. */
  revision: number;
  /** Opaque, totally ordered global position; use it as a subscription checkpoint. */
  position: string;
  data: T;
  metadata: Record<string, unknown>;
  recordedAt: string;
}

/** `any`, the stream must not exist yet, must exist, or its last revision must equal the number. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendResult {
  nextExpectedRevision: number;
  position: string;
}

export class WrongExpectedRevisionError extends Error {
  constructor(readonly streamId: string, readonly expected: ExpectedRevision, readonly actual: number | 'no_stream') {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

export interface Subscription {
  stop(): Promise<void>;
}

export type EventHandler = (event: RecordedEvent) => Promise<void> | void;

export abstract class EventStore {
  abstract append(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult>;
  abstract readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]>;
  /** Events strictly after `after` (null = from the beginning), in global order. */
  abstract readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]>;
  /** Delivers every event strictly after `after`, then live ones, one at a time and in order. */
  abstract subscribeToAll(options: { after: string | null }, handler: EventHandler): Subscription;
  /** Position of the newest event, or null for an empty store (used for lag and readiness). */
  abstract headPosition(): Promise<string | null>;
  abstract close(): Promise<void>;
}
