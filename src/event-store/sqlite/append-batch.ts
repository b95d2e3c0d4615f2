// Group commit: every pending append request shares one IMMEDIATE transaction (one fsync).
// The batch is first tried plainly: per request one revision lookup (none for `no_stream`, none for a
// request or key stream whose revision this connection committed: remembered-revisions.ts) and one INSERT
// per event. That is what every append of new events to a stream in the expected state needs, and it is
// nearly all of them.
// Anything else (an event id already stored, a revision that does not match, any error) rolls the
// attempt back and the batch runs again the careful way: each request in its own savepoint, so a
// request that conflicts is rolled back alone and the others commit, with stored ids looked up first
// so a retried append succeeds without writing (an id stored in another stream is refused: ids are
// unique store-wide here, EventIdConflictError). The plain try saves the worker seven of twelve
// statements per chat request (docs/benchmarks-archive.md, finding 36).
import type Database from 'better-sqlite3';
import { EventIdConflictError, WrongExpectedRevisionError, type AppendResult, type ExpectedRevision } from '../event-store.port';
import type { AppendOutcome, AppendRequest, SerializedEvent } from './append-protocol';
import { decodeStream, rowEncoderFor, type StoredId } from './row-codec';
import { RememberedRevisions } from './remembered-revisions';

interface StoredEvent {
  stream_id: StoredId;
  revision: number;
  position: number;
}

export type BatchAppender = (requests: AppendRequest[], recordedAt: string) => AppendOutcome[];

interface AppendedOne {
  result: AppendResult;
  allNew: boolean;
}

/** Writes rows in the store's own format (row-codec.ts), read once when the worker opens the store. */
export function createBatchAppender(db: Database.Database): BatchAppender {
  const encode = rowEncoderFor(db);
  const lastRevisionQuery = db.prepare<[StoredId], { revision: number | null }>(
    'SELECT MAX(revision) AS revision FROM events WHERE stream_id = ?',
  );
  const storedEventQuery = db.prepare<[StoredId], StoredEvent>('SELECT stream_id, revision, position FROM events WHERE event_id = ?');
  const insertRow = db.prepare(
    'INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const lastRevision = (stream: StoredId): number | null => lastRevisionQuery.get(stream)?.revision ?? null;
  const known = new RememberedRevisions();
  const storedEvent = (eventId: string): StoredEvent | undefined => storedEventQuery.get(encode.id(eventId));

  /** Inserts `events` after revision `current`; returns the last revision and position written. */
  function insertAll(stream: StoredId, current: number | null, events: SerializedEvent[], recordedAt: string | number): AppendResult {
    let revision = current ?? -1;
    let position = 0;
    for (const event of events) {
      revision += 1;
      const info = insertRow.run(encode.id(event.id), stream, revision, event.type, encode.payload(event.data), encode.payload(event.metadata), recordedAt);
      position = Number(info.lastInsertRowid);
    }
    return { nextExpectedRevision: revision, position: String(position) };
  }

  /** True when the stream holds the id; throws when another stream does. */
  function isStoredHere(streamId: string, eventId: string): boolean {
    const stored = storedEvent(eventId);
    if (stored === undefined) return false;
    const storedIn = decodeStream(stored.stream_id);
    if (storedIn !== streamId) throw new EventIdConflictError(streamId, eventId, storedIn);
    return true;
  }

  function appendOne(request: AppendRequest, recordedAt: string | number): AppendedOne {
    const fresh = unstoredEvents(request.events, (id) => isStoredHere(request.streamId, id));
    if (fresh.length === 0) return { result: alreadyStoredResult(storedEvent(request.events[request.events.length - 1].id)!), allNew: false };
    const stream = encode.stream(request.streamId);
    const current = lastRevision(stream);
    if (!satisfies(request.expectedRevision, current)) {
      throw new WrongExpectedRevisionError(request.streamId, request.expectedRevision, current ?? 'no_stream');
    }
    return { result: insertAll(stream, current, fresh, recordedAt), allNew: fresh.length === request.events.length };
  }

  /**
   * Only new events to a stream in the expected state; throws (rolling the whole try back) otherwise. The
   * revision is not looked up for `no_stream` (an existing stream makes the insert at revision 0 hit the
   * UNIQUE constraint) nor for a request or key stream whose revision this connection committed last.
   */
  function appendPlainly(request: AppendRequest, recordedAt: string | number): AppendOutcome {
    const stream = encode.stream(request.streamId);
    const current = request.expectedRevision === 'no_stream' ? null : (known.get(request.streamId) ?? lastRevision(stream));
    if (!satisfies(request.expectedRevision, current)) throw new Error('revision mismatch: may be a retried append');
    return { ok: true, result: insertAll(stream, current, request.events, recordedAt), allNew: true };
  }

  const appendAllPlainly = db.transaction((requests: AppendRequest[], recordedAt: string | number) =>
    requests.map((request) => appendPlainly(request, recordedAt)),
  );
  const appendInSavepoint = db.transaction(appendOne);
  const appendAllCarefully = db.transaction((requests: AppendRequest[], recordedAt: string | number) =>
    requests.map((request) => outcomeOf(() => appendInSavepoint(request, recordedAt))),
  );

  return (requests, recordedAt) => {
    const stored = encode.recordedAt(recordedAt);
    try {
      return remembered(requests, appendAllPlainly.immediate(requests, stored));
    } catch {
      // What the rolled-back try wrote was never committed; what the careful run commits is read again.
      for (const request of requests) known.forget(request.streamId);
      return appendAllCarefully.immediate(requests, stored);
    }
  };

  /** Notes each committed request or key stream's last revision (after the commit: a rolled-back try notes nothing). */
  function remembered(requests: AppendRequest[], outcomes: AppendOutcome[]): AppendOutcome[] {
    outcomes.forEach((outcome, index) => {
      if (outcome.ok) known.committed(requests[index].streamId, outcome.result.nextExpectedRevision);
    });
    return outcomes;
  }
}

/** Drops events already stored and repeats of an id within the same request. */
function unstoredEvents(events: SerializedEvent[], isStored: (id: string) => boolean): SerializedEvent[] {
  const seen = new Set<string>();
  return events.filter((event) => {
    if (seen.has(event.id) || isStored(event.id)) return false;
    seen.add(event.id);
    return true;
  });
}

function alreadyStoredResult(last: StoredEvent): AppendResult {
  return { nextExpectedRevision: last.revision, position: String(last.position) };
}

export function satisfies(expected: ExpectedRevision, current: number | null): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === null;
  if (expected === 'stream_exists') return current !== null;
  return current === expected;
}

function outcomeOf(append: () => AppendedOne): AppendOutcome {
  try {
    return { ok: true, ...append() };
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) {
      const { streamId, expected, actual } = error;
      return { ok: false, failure: { kind: 'wrong_expected_revision', streamId, expected, actual } };
    }
    if (error instanceof EventIdConflictError) {
      const { streamId, eventId, storedIn } = error;
      return { ok: false, failure: { kind: 'event_id_conflict', streamId, eventId, storedIn } };
    }
    return { ok: false, failure: { kind: 'failure', message: error instanceof Error ? error.message : String(error) } };
  }
}
