// Reads. $all is read in (transaction_id, global_position) order and only up to the oldest transaction
// still running (pg_snapshot_xmin): every row below it is settled, and every transaction that commits
// later has a larger id, so a reader never passes over an event that commits late.
import type { Pool } from 'pg';
import type { RecordedEvent } from '../event-store.port';
import { formatPosition, parsePosition } from './postgres-schema';

const COLUMNS = `transaction_id::text AS transaction_id, global_position::text AS global_position, event_id, stream_id, revision, type, data, metadata, recorded_at`;
const SETTLED = `transaction_id < pg_snapshot_xmin(pg_current_snapshot())`;

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
    `SELECT ${COLUMNS} FROM gateway_events WHERE stream_id = $1 AND revision >= $2 ORDER BY revision LIMIT $3`,
    [streamId, fromRevision, limit],
  );
  return rows.map(toRecordedEvent);
}

export async function readAll(pool: Pool, after: string | null, maxCount: number): Promise<RecordedEvent[]> {
  const from = after === null ? { transactionId: '0', globalPosition: '0' } : parsePosition(after);
  const { rows } = await pool.query<EventRow>(
    `SELECT ${COLUMNS} FROM gateway_events
      WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint) AND ${SETTLED}
      ORDER BY transaction_id, global_position LIMIT $3`,
    [from.transactionId, from.globalPosition, Math.min(maxCount, 2 ** 31 - 1)],
  );
  return rows.map(toRecordedEvent);
}

export async function headPosition(pool: Pool): Promise<string | null> {
  const { rows } = await pool.query<{ transaction_id: string; global_position: string }>(
    `SELECT transaction_id::text AS transaction_id, global_position::text AS global_position FROM gateway_events
      WHERE ${SETTLED} ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  return rows.length === 0 ? null : formatPosition(rows[0].transaction_id, rows[0].global_position);
}

export async function readStoreId(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ store_id: string }>('SELECT store_id::text AS store_id FROM gateway_store_identity');
  if (rows.length !== 1) throw new Error('the PostgreSQL event store has no identity row (gateway_store_identity)');
  return rows[0].store_id;
}
