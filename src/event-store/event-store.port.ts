// The event store port. Adapters: SQLite (embedded default), PostgreSQL and EventStoreDB/KurrentDB.
// One contract suite (event-store.contract.ts) runs against every adapter.

export interface NewEvent<T = unknown> {
  /** Deterministic id (uuid); re-appending the same id to the same stream is a no-op, never a duplicate. */
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

/**
 * An append asked to store an id that another stream already holds (stores whose ids are unique
 * store-wide, see EventStore.eventIdScope). Nothing of the batch was written.
 */
export class EventIdConflictError extends Error {
  constructor(readonly streamId: string, readonly eventId: string, readonly storedIn: string) {
    super(`event ${eventId} cannot be appended to ${streamId}: it is stored in ${storedIn}`);
  }
}

/**
 * An append whose outcome the store could not establish (it may or may not have committed). Retrying
 * the same events with the same expected revision is always safe: stored ids are never written twice.
 */
export class AppendOutcomeUnknownError extends Error {
  constructor(readonly streamId: string, readonly cause: unknown) {
    super(`stream ${streamId}: the append's outcome is unknown (${cause instanceof Error ? cause.message : String(cause)})`);
  }
}

export interface Subscription {
  stop(): Promise<void>;
}

export type EventHandler = (event: RecordedEvent) => Promise<void> | void;

export interface SubscribeOptions {
  after: string | null;
  /**
   * Called when the handler (or a read) fails. The subscription then retries the same event after a
   * short pause, so a failing consumer stalls instead of skipping an event it has not applied.
   */
  onError?: (error: unknown, event: RecordedEvent | null) => void;
}

/**
 * Positions are one or more `/`-separated unsigned decimal integers (SQLite: `42`, PostgreSQL:
 * `transaction/sequence`, EventStoreDB: `commit/prepare`), ordered component by component. Consumers compare checkpoints with this, never
 * as strings.
 */
export function comparePositions(a: string, b: string): number {
  if (a.length <= 15 && b.length <= 15 && !a.includes('/') && !b.includes('/')) return Math.sign(Number(a) - Number(b));
  const left = a.split('/').map(BigInt);
  const right = b.split('/').map(BigInt);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0n) - (right[i] ?? 0n);
    if (difference !== 0n) return difference < 0n ? -1 : 1;
  }
  return 0;
}

/** Where an event id must be unique: the whole store (SQLite, PostgreSQL) or its stream (EventStoreDB). */
export type EventIdScope = 'store' | 'stream';

export abstract class EventStore {
  /**
   * Appends one or more events atomically (expectedRevision defaults to `any`). Idempotency, the
   * promise every adapter keeps (event-store.contract.ts proves it):
   * - Events whose id the stream already holds are skipped, whatever the expected revision and however
   *   long ago they were stored (EventStoreDB: among the stream's newest 256 events, which is every event
   *   of a request stream). When all are, the append succeeds without writing, returning the
   *   revision and position of the last of them: a retry of an append that committed answers as it did.
   * - When some are stored (a partially stored batch), only the others are appended, in order, and the
   *   expected revision is checked against the stream's current revision, as for a new append.
   * - An id another stream holds: with `eventIdScope` `store` the append fails with
   *   EventIdConflictError and writes nothing; with `stream` it is a different event and is appended.
   *   Gateway ids are derived from their request (event-ids.ts), so this only happens by mistake.
   * - An outcome the adapter cannot establish is resolved before answering where it can (reading the
   *   stream back); otherwise it rejects with AppendOutcomeUnknownError, and a retry with the same ids
   *   and expected revision stores them exactly once.
   */
  abstract readonly eventIdScope: EventIdScope;
  /**
   * A stable id of the storage itself (created with it, kept by backups and restores of the same
   * store). Read models record it with their checkpoint: a checkpoint from another store is invalid.
   */
  abstract storeId(): Promise<string>;
  abstract append(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult>;
  abstract readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]>;
  /** Events strictly after `after` (null = from the beginning), in global order; fewer than `maxCount` only at the head. */
  abstract readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]>;
  /** Delivers every event strictly after `after`, then live ones, one at a time and in order. */
  abstract subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription;
  /** Position of the newest event, or null for an empty store (used for lag and readiness). */
  abstract headPosition(): Promise<string | null>;
  /**
   * Optional capability: the store forgets a stream's events once they are older than `maxAgeSeconds`
   * (EventStoreDB/KurrentDB stream metadata `$maxAge`: they stop being read at once and are deleted by the
   * next scavenge). The stream keeps its revision: an append expecting `no_stream` is refused with the
   * last revision as the actual one. Absent on SQLite and PostgreSQL, which never delete an event (their
   * callers sweep what they keep elsewhere).
   */
  setStreamMaxAge?(streamId: string, maxAgeSeconds: number): Promise<void>;
  abstract close(): Promise<void>;
}
