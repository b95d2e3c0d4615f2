// Reads. $all is read in (transaction_id, global_position) order and only below the horizon: the oldest
// transaction still running in the statement's snapshot. Every row below it is settled, and every
// transaction that commits later has a larger id, so a reader never passes over an event that commits late.
import type { Pool } from 'pg';
import type { RecordedEvent } from '../event-store.port';
import { formatPosition, parsePosition } from './postgres-schema';

// The positions' parts are read as text (xid8 and bigint exceed a double); ORDER BY names `e.`'s columns, not
// these text outputs of the same name, or the order would be the strings' ("975" after "5367").
const COLUMNS = `e.transaction_id::text AS transaction_id, e.global_position::text AS global_position, event_id, stream_id, revision, type, data, metadata, recorded_at`;
// Transaction ids are cluster-wide, so pg_snapshot_xmin alone would let a long transaction in any other
// database of the cluster hold this one's readers back. Running transactions the statement's snapshot lists
// are left out of the horizon only when pg_stat_activity shows them in another database (they cannot
// write here); any it cannot place (finished since, or hidden without pg_read_all_stats) still count.
const HORIZON = `(SELECT coalesce(min(running), pg_snapshot_xmax(pg_current_snapshot()))
    FROM pg_snapshot_xip(pg_current_snapshot()) AS running
   WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity AS elsewhere
                      WHERE elsewhere.backend_xid = running::xid
                        AND elsewhere.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database())))`;
const SETTLED = `e.transaction_id < ${HORIZON}`;

export interface EventRow {
  transaction_id: string;
  global_position: string;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown> | null;
  recorded_at: Date;
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    streamId: row.stream_id,
    revision: row.revision,
    position: formatPosition(row.transaction_id, row.global_position),
    data: row.data,
    metadata: row.metadata ?? {},
    recordedAt: row.recorded_at.toISOString(),
  };
}

export async function readStream(pool: Pool, streamId: string, fromRevision: number, maxCount: number): Promise<RecordedEvent[]> {
  const limit = Math.min(maxCount, 2 ** 31 - 1);
  const { rows } = await pool.query<EventRow>(
    `SELECT ${COLUMNS} FROM gateway_events AS e WHERE stream_id = $1 AND revision >= $2 ORDER BY e.revision LIMIT $3`,
    [streamId, fromRevision, limit],
  );
  return rows.map(toRecordedEvent);
}

export async function readAll(pool: Pool, after: string | null, maxCount: number): Promise<RecordedEvent[]> {
  const from = after === null ? { transactionId: '0', globalPosition: '0' } : parsePosition(after);
  const { rows } = await pool.query<EventRow>(
    `SELECT ${COLUMNS} FROM gateway_events AS e
      WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint) AND ${SETTLED}
      ORDER BY e.transaction_id, e.global_position LIMIT $3`,
    [from.transactionId, from.globalPosition, Math.min(maxCount, 2 ** 31 - 1)],
  );
  return rows.map(toRecordedEvent);
}

export async function headPosition(pool: Pool): Promise<string | null> {
  const { rows } = await pool.query<{ transaction_id: string; global_position: string }>(
    `SELECT e.transaction_id::text AS transaction_id, e.global_position::text AS global_position FROM gateway_events AS e
      WHERE ${SETTLED} ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`,
  );
  return rows.length === 0 ? null : formatPosition(rows[0].transaction_id, rows[0].global_position);
}

export async function readStoreId(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ store_id: string }>('SELECT store_id::text AS store_id FROM gateway_store_identity');
  if (rows.length !== 1) throw new Error('the PostgreSQL event store has no identity row (gateway_store_identity)');
  return rows[0].store_id;
}
