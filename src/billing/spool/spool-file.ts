// The spool file: reserved whole at start-up (zeros written, not a sparse file, so the blocks are the
// spool's own and a full disk cannot refuse a record later), records written in place one after
// another and fdatasync'd before the write resolves. Writes are serialized: a record is never written
// after one still in flight, so a crash leaves at most the last record torn, which the scan ignores.
// When every record is drained the write position returns to 0 and the space is reused; records left
// behind it are all marked drained, so reading one again after a crash is harmless (and the store
// skips event ids it holds anyway).
import { closeSync, existsSync, fdatasyncSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import {
  DRAINED,
  encodeSpoolRecord,
  scanSpool,
  STATE_BYTE_OFFSET,
  type ScannedRecord,
  type SpoolEntry,
} from './spool-record';

export class SpoolFullError extends Error {
  constructor(needed: number, free: number) {
    super(`billing spool is full: a record of ${needed} bytes does not fit in the ${free} bytes left`);
  }
}

const RESERVE_CHUNK_BYTES = 1024 * 1024;

export class SpoolFile {
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: FileHandle,
    readonly capacityBytes: number,
    private writeOffset: number,
    /** Records not yet drained, oldest first. */
    readonly pending: ScannedRecord[],
  ) {}

  /** Reserves `capacityBytes` (growing the file if it is smaller) and reads the records a previous run left. */
  static async open(path: string, capacityBytes: number): Promise<SpoolFile> {
    // Not 'a+': with O_APPEND, Linux ignores the position of every write.
    const fd = openSync(path, existsSync(path) ? 'r+' : 'w+');
    let records: ScannedRecord[];
    let capacity: number;
    try {
      capacity = reserve(fd, capacityBytes);
      records = scanFile(fd, capacity);
    } finally {
      closeSync(fd);
    }
    const end = records.length === 0 ? 0 : records[records.length - 1].offset + records[records.length - 1].size;
    const pending = records.filter((record) => record.state === 'pending');
    return new SpoolFile(await open(path, 'r+'), capacity, pending.length === 0 ? 0 : end, pending);
  }

  get usedBytes(): number {
    return this.writeOffset;
  }

  /** Writes and syncs one record; rejects with SpoolFullError when it does not fit. */
  write(entry: SpoolEntry): Promise<ScannedRecord> {
    const written = this.tail.then(() => this.writeNow(entry));
    this.tail = written.catch(() => undefined);
    return written;
  }

  private async writeNow(entry: SpoolEntry): Promise<ScannedRecord> {
    const bytes = encodeSpoolRecord(entry);
    const free = this.capacityBytes - this.writeOffset;
    if (bytes.length > free) throw new SpoolFullError(bytes.length, free);
    const offset = this.writeOffset;
    await this.file.write(bytes, 0, bytes.length, offset);
    await this.file.datasync();
    this.writeOffset += bytes.length;
    const record: ScannedRecord = { offset, size: bytes.length, state: 'pending', entry };
    this.pending.push(record);
    return record;
  }

  /** Flips the record's state byte; once nothing is pending, the space is synced and reused from 0. */
  markDrained(record: ScannedRecord): Promise<void> {
    const done = this.tail.then(async () => {
      await this.file.write(Buffer.of(DRAINED), 0, 1, record.offset + STATE_BYTE_OFFSET);
      record.state = 'drained';
      const index = this.pending.indexOf(record);
      if (index >= 0) this.pending.splice(index, 1);
      if (this.pending.length === 0) {
        await this.file.datasync();
        this.writeOffset = 0;
      }
    });
    this.tail = done.catch(() => undefined);
    return done;
  }

  async close(): Promise<void> {
    await this.tail;
    await this.file.close();
  }
}

/** Grows the file to `capacityBytes` with real zeros; a larger file (an earlier, bigger setting) is kept whole. */
function reserve(fd: number, capacityBytes: number): number {
  const size = fstatSync(fd).size;
  if (size >= capacityBytes) return size;
  const zeros = Buffer.alloc(Math.min(RESERVE_CHUNK_BYTES, capacityBytes - size));
  for (let offset = size; offset < capacityBytes; offset += zeros.length) {
    writeSync(fd, zeros, 0, Math.min(zeros.length, capacityBytes - offset), offset);
  }
  fdatasyncSync(fd);
  return capacityBytes;
}

function scanFile(fd: number, capacity: number): ScannedRecord[] {
  return scanSpool((offset, length) => {
    const bytes = Buffer.alloc(length);
    return bytes.subarray(0, readSync(fd, bytes, 0, length, offset));
  }, capacity);
}
