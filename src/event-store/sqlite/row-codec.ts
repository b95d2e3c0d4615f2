// How an event's columns are stored. Stores created since finding 45 (docs/benchmarks-archive.md) keep rows
// compact: a canonical UUID as its 16 bytes, a request stream's name as a tag byte and its UUID's bytes,
// the payloads through payload-codec.ts and recorded_at as Unix milliseconds. About a third of the
// bytes per billed request. Stores created before keep plain text in every column; the format is read
// from the table's definition when a store opens (rowEncoderFor). Decoding takes either form, so a
// row read from memory (plain) and one read from the file decode the same way.
import type Database from 'better-sqlite3';
import { encodePayload } from './payload-codec';
import { REQUEST_STREAM_PREFIX } from '../event-ids';

export type StoredId = string | Buffer;

export interface RowEncoder {
  id(eventId: string): StoredId;
  stream(streamId: string): StoredId;
  payload(json: string): string;
  recordedAt(isoTime: string): string | number;
}

const REQUEST_STREAM_TAG = 1;
const UUID_BYTES = 16;
const UUID_LENGTH = 36;
const DASH = 45;

/** A lower-case hex digit's value, or -1 (upper case is not canonical: it would not read back the same). */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/**
 * The 16 bytes of the canonical (lower-case, dashed) UUID at `text[from..]` running to the end of
 * `text`, written after `lead` bytes of a new buffer; null for anything else. By hand: a regular
 * expression and Buffer.from(hex) took about ten times as long, on every event of every commit.
 */
function uuidBytes(text: string, from: number, lead: number): Buffer | null {
  if (text.length - from !== UUID_LENGTH) return null;
  const bytes = Buffer.allocUnsafe(lead + UUID_BYTES);
  let at = from;
  for (let index = lead; index < bytes.length; index++) {
    if (at - from === 8 || at - from === 13 || at - from === 18 || at - from === 23) {
      if (text.charCodeAt(at) !== DASH) return null;
      at++;
    }
    const high = hexValue(text.charCodeAt(at));
    const low = hexValue(text.charCodeAt(at + 1));
    if (high < 0 || low < 0) return null;
    bytes[index] = high * 16 + low;
    at += 2;
  }
  return bytes;
}

function uuidText(bytes: Buffer, offset: number): string {
  const hex = bytes.toString('hex', offset, offset + UUID_BYTES);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const PLAIN_ROWS: RowEncoder = {
  id: (eventId) => eventId,
  stream: (streamId) => streamId,
  payload: (json) => json,
  recordedAt: (isoTime) => isoTime,
};

export const COMPACT_ROWS: RowEncoder = {
  id: (eventId) => uuidBytes(eventId, 0, 0) ?? eventId,
  stream(streamId) {
    const bytes = streamId.startsWith(REQUEST_STREAM_PREFIX) ? uuidBytes(streamId, REQUEST_STREAM_PREFIX.length, 1) : null;
    if (bytes === null) return streamId;
    bytes[0] = REQUEST_STREAM_TAG;
    return bytes;
  },
  payload: encodePayload,
  recordedAt: (isoTime) => Date.parse(isoTime),
};

export function decodeId(stored: StoredId): string {
  return typeof stored === 'string' ? stored : uuidText(stored, 0);
}

export function decodeStream(stored: StoredId): string {
  if (typeof stored === 'string') return stored;
  if (stored.length !== 1 + UUID_BYTES || stored[0] !== REQUEST_STREAM_TAG) throw new Error('unknown stored stream id');
  return REQUEST_STREAM_PREFIX + uuidText(stored, 1);
}

export function decodeRecordedAt(stored: string | number): string {
  return typeof stored === 'string' ? stored : new Date(stored).toISOString();
}

/** The store's row format, from the declared type of recorded_at (INTEGER since the compact format). */
export function rowEncoderFor(db: Database.Database): RowEncoder {
  const column = db.prepare<[], { type: string }>("SELECT type FROM pragma_table_info('events') WHERE name = 'recorded_at'").get();
  return column?.type.toUpperCase() === 'INTEGER' ? COMPACT_ROWS : PLAIN_ROWS;
}
