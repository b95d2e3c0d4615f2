// The rate-limit snapshot as stored: each organization's in-window admission times, ascending, as
// the first time and then the gaps between consecutive times, all as unsigned varints. Under load a
// log holds one time per admission of the window (a million-per-minute limit: 60,000+ times), and
// gaps are a few milliseconds, so this is about one byte per admission. As JSON the same snapshot
// was ~14 bytes per admission, and writing it every few seconds stalled the event loop for
// 10-40 ms (docs/benchmarks.md). Snapshots stored as JSON text by earlier versions are still read.
import type { RateLimitSnapshot, StoredRateLimitSnapshot } from './rate-limit.rules';

/** Marks the binary format; a JSON text snapshot starts with `{`. */
const FORMAT_V1 = 1;

export function encodeSnapshot(snapshot: RateLimitSnapshot): Buffer {
  const writer = new VarintWriter();
  writer.uint(FORMAT_V1);
  for (const [organizationId, times] of Object.entries(snapshot)) {
    writer.text(organizationId);
    writer.uint(times.length);
    writer.gaps(times);
  }
  return writer.bytes();
}

/** Reads either format; throws on a snapshot that is neither (the caller then starts from the store). */
export function decodeSnapshot(stored: string | Buffer): StoredRateLimitSnapshot {
  if (typeof stored === 'string') return JSON.parse(stored) as StoredRateLimitSnapshot;
  const reader = new VarintReader(stored);
  if (reader.uint() !== FORMAT_V1) throw new Error('unknown rate-limit snapshot format');
  const snapshot: RateLimitSnapshot = {};
  while (!reader.done()) {
    const organizationId = reader.text();
    const times = new Array<number>(reader.uint());
    let previous = 0;
    for (let index = 0; index < times.length; index += 1) times[index] = previous += reader.uint();
    snapshot[organizationId] = times;
  }
  return snapshot;
}

/** Arithmetic rather than bit operations, so values up to 2^53 (epoch milliseconds) encode exactly. */
class VarintWriter {
  private buffer = Buffer.allocUnsafe(1024);
  private length = 0;

  uint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not an unsigned integer: ${value}`);
    this.reserve(8);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.buffer[this.length++] = rest;
  }

  /** The first value, then each difference from the one before; most take the one-byte path. */
  gaps(values: readonly number[]): void {
    // A plain indexed loop over locals: the snapshot runs every few seconds, mostly before V8 has
    // optimised it, and the interpreter is several times slower with iterators and field accesses.
    this.reserve(values.length);
    let previous = 0;
    for (let index = 0; index < values.length; index += 1) {
      const gap = values[index] - previous;
      previous = values[index];
      if (gap >= 0 && gap < 0x80 && gap % 1 === 0 && this.length < this.buffer.length) this.buffer[this.length++] = gap;
      else this.uint(gap);
    }
  }

  text(value: string): void {
    const encoded = Buffer.from(value, 'utf8');
    this.uint(encoded.length);
    this.reserve(encoded.length);
    encoded.copy(this.buffer, this.length);
    this.length += encoded.length;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

class VarintReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  done(): boolean {
    return this.offset >= this.buffer.length;
  }

  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.offset >= this.buffer.length) throw new Error('truncated rate-limit snapshot');
      const byte = this.buffer[this.offset++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  text(): string {
    const length = this.uint();
    if (this.offset + length > this.buffer.length) throw new Error('truncated rate-limit snapshot');
    const value = this.buffer.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return value;
  }
}
