// The spool's on-disk record, pure so it is tested without a disk. Little-endian layout:
//   0 magic 'SPL1' | 4 payload length | 8 CRC-32 of the payload | 12 state (0 pending, 1 drained) | 13..15 zero
//   16 payload: UTF-8 JSON of { streamId, events } - the exact events the billing append carried.
// The state byte sits outside the checksum so draining flips one byte in place. A record whose magic,
// length or checksum does not hold ends the scan: it is the torn last write of a crash, or the
// preallocated zeros after the last record.
import { crc32 } from 'node:zlib';
import type { NewEvent } from '../../event-store/event-store.port';

export interface SpoolEntry {
  streamId: string;
  events: NewEvent[];
}

export type SpoolRecordState = 'pending' | 'drained';

export interface ScannedRecord {
  offset: number;
  /** Header and payload bytes; the next record starts at offset + size. */
  size: number;
  state: SpoolRecordState;
  entry: SpoolEntry;
}

export const SPOOL_HEADER_BYTES = 16;
export const STATE_BYTE_OFFSET = 12;
export const DRAINED = 1;
const MAGIC = 0x314c5053; // 'SPL1' read little-endian
const PENDING = 0;

export function encodeSpoolRecord(entry: SpoolEntry): Buffer {
  const payload = Buffer.from(JSON.stringify({ streamId: entry.streamId, events: entry.events }), 'utf8');
  const record = Buffer.alloc(SPOOL_HEADER_BYTES + payload.length);
  record.writeUInt32LE(MAGIC, 0);
  record.writeUInt32LE(payload.length, 4);
  record.writeUInt32LE(crc32(payload), 8);
  record.writeUInt8(PENDING, STATE_BYTE_OFFSET);
  payload.copy(record, SPOOL_HEADER_BYTES);
  return record;
}

/** The payload length a header announces, or null when it is not a record header that fits `room`. */
export function payloadLengthOf(header: Buffer, room: number): number | null {
  if (header.length < SPOOL_HEADER_BYTES || header.readUInt32LE(0) !== MAGIC) return null;
  const length = header.readUInt32LE(4);
  const state = header.readUInt8(STATE_BYTE_OFFSET);
  if (state !== PENDING && state !== DRAINED) return null;
  return length > 0 && SPOOL_HEADER_BYTES + length <= room ? length : null;
}

/** The record whose header and payload are given, or null when the checksum or JSON does not hold. */
export function decodeSpoolRecord(offset: number, header: Buffer, payload: Buffer): ScannedRecord | null {
  if (crc32(payload) !== header.readUInt32LE(8)) return null;
  const entry = parseEntry(payload);
  if (!entry) return null;
  const state: SpoolRecordState = header.readUInt8(STATE_BYTE_OFFSET) === DRAINED ? 'drained' : 'pending';
  return { offset, size: SPOOL_HEADER_BYTES + payload.length, state, entry };
}

/** Reads `length` bytes at `offset`, or fewer at the end of the file. */
export type ReadAt = (offset: number, length: number) => Buffer;

/** Every record from offset 0 up to the first that does not hold, reading through `read` (a file or a buffer). */
export function scanSpool(read: ReadAt, capacity: number): ScannedRecord[] {
  const records: ScannedRecord[] = [];
  let offset = 0;
  for (;;) {
    const header = read(offset, SPOOL_HEADER_BYTES);
    const length = payloadLengthOf(header, capacity - offset);
    if (length === null) return records;
    const payload = read(offset + SPOOL_HEADER_BYTES, length);
    const record = payload.length === length ? decodeSpoolRecord(offset, header, payload) : null;
    if (!record) return records;
    records.push(record);
    offset += record.size;
  }
}

export function scanSpoolBytes(bytes: Buffer): ScannedRecord[] {
  return scanSpool((offset, length) => bytes.subarray(offset, offset + length), bytes.length);
}

function parseEntry(payload: Buffer): SpoolEntry | null {
  try {
    const parsed = JSON.parse(payload.toString('utf8')) as Partial<SpoolEntry>;
    return typeof parsed.streamId === 'string' && Array.isArray(parsed.events) ? { streamId: parsed.streamId, events: parsed.events } : null;
  } catch {
    return null;
  }
}
