// Group commit: every pending append request shares one IMMEDIATE transaction (one fsync).
// The batch is first tried plainly: per request one revision lookup and one INSERT per event. That is
// what every append of new events to a stream in the expected state needs, and it is nearly all of them.
// Anything else (an event id already stored, a revision that does not match, any error) rolls the
// attempt back and the batch runs again the careful way: each request in its own savepoint, so a
// request that conflicts is rolled back alone and the others commit, with stored ids looked up first
// so a retried append succeeds without writing (an id stored in another stream is refused: ids are
// unique store-wide here, EventIdConflictError). The plain try saves the worker seven of twelve
// statements per chat request (docs/benchmarks.md, finding 36).
import type Database from 'better-sqlite3';
import { EventIdConflictError, WrongExpectedRevisionError, type AppendResult, type ExpectedRevision } from '../event-store.port';
import type { AppendOutcome, AppendRequest, SerializedEvent } from './append-protocol';

interface StoredEvent {
  stream_id: string;
  revision: number;
  position: number;
}

export type BatchAppender = (requests: AppendRequest[], recordedAt: string) => AppendOutcome[];

interface AppendedOne {
  result: AppendResult;
  allNew: boolean;
}

export function createBatchAppender(db: Database.Database): BatchAppender {
  const lastRevision = db.prepare<[string], { revision: number | null }>(
    'SELECT MAX(revision) AS revision FROM events WHERE stream_id = ?',
  );
  const storedEvent = db.prepare<[string], StoredEvent>('SELECT stream_id, revision, position FROM events WHERE event_id = ?');
  const insert = db.prepare(
    'INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );

  /** True when the stream holds the id; throws when another stream does. */
  function isStoredHere(streamId: string, eventId: string): boolean {
    const stored = storedEvent.get(eventId);
    if (stored === undefined) return false;
    if (stored.stream_id !== streamId) throw new EventIdConflictError(streamId, eventId, stored.stream_id);
    return true;
  }

  function appendOne(request: AppendRequest, recordedAt: string): AppendedOne {
    const fresh = unstoredEvents(request.events, (id) => isStoredHere(request.streamId, id));
    if (fresh.length === 0) return { result: alreadyStoredResult(storedEvent.get(request.events[request.events.length - 1].id)!), allNew: false };
    const current = lastRevision.get(request.streamId)?.revision ?? null;
    if (!satisfies(request.expectedRevision, current)) {
      throw new WrongExpectedRevisionError(request.streamId, request.expectedRevision, current ?? 'no_stream');
    }
    let revision = current ?? -1;
    let position = 0;
    for (const event of fresh) {
      revision += 1;
      const info = insert.run(event.id, request.streamId, revision, event.type, event.data, event.metadata, recordedAt);
      position = Number(info.lastInsertRowid);
    }
    return { result: { nextExpectedRevision: revision, position: String(position) }, allNew: fresh.length === request.events.length };
  }

  /** Only new events to a stream in the expected state; throws (rolling the whole try back) otherwise. */
  function appendPlainly(request: AppendRequest, recordedAt: string): AppendOutcome {
    const current = lastRevision.get(request.streamId)?.revision ?? null;
    if (!satisfies(request.expectedRevision, current)) throw new Error('revision mismatch: may be a retried append');
    let revision = current ?? -1;
    let position = 0;
    for (const event of request.events) {
      revision += 1;
      position = Number(insert.run(event.id, request.streamId, revision, event.type, event.data, event.metadata, recordedAt).lastInsertRowid);
    }
    return { ok: true, result: { nextExpectedRevision: revision, position: String(position) }, allNew: true };
  }

  const appendAllPlainly = db.transaction((requests: AppendRequest[], recordedAt: string) =>
    requests.map((request) => appendPlainly(request, recordedAt)),
  );
  const appendInSavepoint = db.transaction(appendOne);
  const appendAllCarefully = db.transaction((requests: AppendRequest[], recordedAt: string) =>
    requests.map((request) => outcomeOf(() => appendInSavepoint(request, recordedAt))),
  );

  return (requests, recordedAt) => {
    try {
      return appendAllPlainly.immediate(requests, recordedAt);
    } catch {
      return appendAllCarefully.immediate(requests, recordedAt);
    }
  };
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
