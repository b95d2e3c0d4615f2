// Table layout of the PostgreSQL event store, created on first connect. The DDL is idempotent and runs
// in one transaction under an advisory lock, so replicas starting together create it once.
// Global order is (transaction_id, global_position), see docs/events.md "Global order on PostgreSQL".
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { checkOut } from './postgres-pool';

/** Advisory lock keys (two-int4 form; the one-bigint form is a separate key space). */
export const LOCK_CLASS = 0x6777; // "gw"
export const SCHEMA_LOCK = 1;
export const RELAY_LOCK = 2;
/** Per-stream append locks use their own class: (STREAM_LOCK_CLASS, hashtext(stream_id)). */
export const STREAM_LOCK_CLASS = 0x6778;

/** The channel appends notify on commit; subscriptions LISTEN on it to wake before their next poll. */
export const APPEND_CHANNEL = 'gateway_events_appended';

// data and metadata are `json`, not `jsonb`: json keeps the text as written (key order, number spelling)
// and accepts \u0000 inside strings, which jsonb refuses (a client's prompt must never fail a billing write).
const DDL = `
  CREATE TABLE IF NOT EXISTS gateway_events (
    global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
    event_id        text        NOT NULL UNIQUE,
    stream_id       text        NOT NULL,
    revision        integer     NOT NULL CHECK (revision >= 0),
    type            text        NOT NULL,
    data            json        NOT NULL,
    metadata        json        NOT NULL,
    recorded_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (stream_id, revision)
  );
  CREATE INDEX IF NOT EXISTS gateway_events_global_order ON gateway_events (transaction_id, global_position);
  CREATE TABLE IF NOT EXISTS gateway_store_identity (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    store_id  uuid    NOT NULL
  );
  -- The Kafka relay's checkpoint, shared by the replicas that take turns relaying (postgres-relay-lease.ts).
  CREATE TABLE IF NOT EXISTS gateway_relay_checkpoint (
    singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    checkpoint json    NOT NULL
  );
`;

export async function ensureSchema(pool: Pool): Promise<void> {
  const { client, release } = await checkOut(pool);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, SCHEMA_LOCK]);
    await client.query(DDL);
    await client.query('INSERT INTO gateway_store_identity (store_id) VALUES ($1) ON CONFLICT DO NOTHING', [randomUUID()]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    release();
  }
}

/** A position is `<transaction id>/<sequence number>`, both unsigned decimal integers. */
export function parsePosition(position: string): { transactionId: string; globalPosition: string } {
  const match = /^(\d{1,20})\/(\d{1,19})$/.exec(position);
  if (!match) throw new Error(`'${position}' is not a PostgreSQL event store position (<transaction id>/<sequence>)`);
  return { transactionId: match[1], globalPosition: match[2] };
}

export function formatPosition(transactionId: string, globalPosition: string): string {
  return `${transactionId}/${globalPosition}`;
}
