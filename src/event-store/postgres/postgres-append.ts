// One append = one transaction: lock the stream (advisory, per stream), settle idempotency against the
// unique event_id, check the expected revision, insert, commit (other replicas are notified afterwards,
// append-notifier.ts). Appends to different streams run
// concurrently; their global order is settled by reads (postgres-reads.ts), not by serializing writers.
import type { Pool, PoolClient } from 'pg';
import {
  AppendOutcomeUnknownError,
  EventIdConflictError,
  WrongExpectedRevisionError,
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
} from '../event-store.port';
import { STREAM_LOCK_CLASS, formatPosition } from './postgres-schema';
import { checkOut } from './postgres-pool';

interface SerializedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

interface StoredRow {
  event_id: string;
  stream_id: string;
  revision: number;
  transaction_id: string;
  global_position: string;
}

const UNIQUE_VIOLATION = '23505';
/** Two appends of one new id to two streams race on the unique index; the loser retries and sees it. */
const MAX_ATTEMPTS = 3;

export function serialize(event: NewEvent): SerializedEvent {
  const data = JSON.stringify(event.data);
  if (data === undefined) throw new Error(`event ${event.id} has no JSON-serializable data`);
  return { id: event.id, type: event.type, data, metadata: JSON.stringify(event.metadata ?? {}) };
}

export async function appendEvents(pool: Pool, streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
  const serialized = events.map(serialize);
  for (let attempt = 1; ; attempt++) {
    try {
      return await appendOnce(pool, streamId, serialized, expected);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

// Four round trips: BEGIN with the stream's lock, the stream's state, the insert, COMMIT. The first is a
// simple-protocol batch of constants (no user text is interpolated).
async function appendOnce(pool: Pool, streamId: string, events: SerializedEvent[], expected: ExpectedRevision): Promise<AppendResult> {
  const { client, release } = await checkOut(pool);
  let committing = false;
  let broken: Error | undefined;
  try {
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${STREAM_LOCK_CLASS}, ${streamLockKey(streamId)})`);
    const { stored, current } = await streamState(client, streamId, events.map((e) => e.id));
    const elsewhere = stored.find((row) => row.stream_id !== streamId);
    if (elsewhere) throw new EventIdConflictError(streamId, elsewhere.event_id, elsewhere.stream_id);
    const storedIds = new Set(stored.map((row) => row.event_id));
    const fresh = events.filter((event) => !storedIds.has(event.id));
    if (fresh.length === 0) {
      await client.query('ROLLBACK');
      return resultOf(stored.find((row) => row.event_id === events[events.length - 1].id)!);
    }
    checkExpected(streamId, expected, current);
    const inserted = await insert(client, streamId, current === 'no_stream' ? 0 : current + 1, fresh);
    committing = true;
    await client.query('COMMIT');
    return resultOf(inserted[inserted.length - 1]);
  } catch (error) {
    // A connection that cannot even roll back is broken: it leaves the pool instead of going back to it.
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    if (committing) return settleUnknownCommit(pool, streamId, events, error);
    throw error;
  } finally {
    release(broken);
  }
}

/** FNV-1a of the stream id as a signed 32-bit integer: the per-stream lock's key (collisions only serialize). */
export function streamLockKey(streamId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < streamId.length; i++) {
    hash ^= streamId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** The batch's ids already stored (in any stream) and the stream's last revision, in one round trip. */
async function streamState(client: PoolClient, streamId: string, ids: string[]): Promise<{ stored: StoredRow[]; current: number | 'no_stream' }> {
  const { rows } = await client.query<{ current: number | null; stored: StoredRow[] }>(
    `SELECT (SELECT max(revision) FROM gateway_events WHERE stream_id = $1) AS current,
            coalesce((SELECT json_agg(json_build_object('event_id', event_id, 'stream_id', stream_id, 'revision', revision,
                        'transaction_id', transaction_id::text, 'global_position', global_position::text))
                        FROM gateway_events WHERE event_id = ANY($2::text[])), '[]') AS stored`,
    [streamId, ids],
  );
  return { stored: rows[0].stored, current: rows[0].current ?? 'no_stream' };
}

/** The COMMIT's answer was lost: the stored ids say whether it happened. */
async function settleUnknownCommit(pool: Pool, streamId: string, events: SerializedEvent[], cause: unknown): Promise<AppendResult> {
  try {
    const { client, release } = await checkOut(pool);
    try {
      const stored = await storedRows(client, events.map((e) => e.id));
      const last = stored.find((row) => row.event_id === events[events.length - 1].id);
      if (last && stored.length === events.length) return resultOf(last);
    } finally {
      release();
    }
  } catch {
    // Unreachable again: the outcome stays unknown.
  }
  throw new AppendOutcomeUnknownError(streamId, cause);
}

async function storedRows(client: PoolClient, ids: string[]): Promise<StoredRow[]> {
  const { rows } = await client.query<StoredRow>(
    `SELECT event_id, stream_id, revision, transaction_id::text AS transaction_id, global_position::text AS global_position
       FROM gateway_events WHERE event_id = ANY($1::text[])`,
    [ids],
  );
  return rows;
}

function checkExpected(streamId: string, expected: ExpectedRevision, current: number | 'no_stream'): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === 'no_stream') ||
    (expected === 'stream_exists' && current !== 'no_stream') ||
    (typeof expected === 'number' && expected === current);
  if (!ok) throw new WrongExpectedRevisionError(streamId, expected, current);
}

/** Inserted in batch order: identity values are drawn as the ordered SELECT produces its rows. */
async function insert(client: PoolClient, streamId: string, firstRevision: number, events: SerializedEvent[]): Promise<StoredRow[]> {
  const { rows } = await client.query<StoredRow>(
    `INSERT INTO gateway_events (event_id, stream_id, revision, type, data, metadata)
     SELECT e.id, $1, $2 + e.ord::int - 1, e.type, e.data::json, e.metadata::json
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS e(id, type, data, metadata, ord)
      ORDER BY e.ord
     RETURNING event_id, stream_id, revision, transaction_id::text AS transaction_id, global_position::text AS global_position`,
    [streamId, firstRevision, events.map((e) => e.id), events.map((e) => e.type), events.map((e) => e.data), events.map((e) => e.metadata)],
  );
  return rows.sort((a, b) => a.revision - b.revision);
}

function resultOf(row: StoredRow): AppendResult {
  return { nextExpectedRevision: row.revision, position: formatPosition(row.transaction_id, row.global_position) };
}
