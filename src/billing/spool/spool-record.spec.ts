import { DRAINED, encodeSpoolRecord, payloadLengthOf, scanSpoolBytes, SPOOL_HEADER_BYTES, STATE_BYTE_OFFSET, type SpoolEntry } from './spool-record';

const entry = (n: number): SpoolEntry => ({
  streamId: `request-${n}`,
  events: [
    { id: `00000000-0000-4000-8000-00000000000${n}`, type: 'UsageMeasured', data: { requestId: `r${n}`, text: 'héllo ✓' }, metadata: { schemaVersion: 1 } },
    { id: `00000000-0000-4000-9000-00000000000${n}`, type: 'CostPriced', data: { requestId: `r${n}`, costUsdMicros: 1234 + n }, metadata: { schemaVersion: 1 } },
  ],
});

/** Records laid out as in a preallocated file: one after another, zeros behind them. */
function file(records: Buffer[], spare = 64): Buffer {
  return Buffer.concat([...records, Buffer.alloc(spare)]);
}

describe('spool record codec', () => {
  it('gives back the exact events (ids, types, data, metadata) of every record, in order, pending', () => {
    const scanned = scanSpoolBytes(file([encodeSpoolRecord(entry(1)), encodeSpoolRecord(entry(2))]));
    expect(scanned.map((r) => r.entry)).toEqual([entry(1), entry(2)]);
    expect(scanned.map((r) => r.state)).toEqual(['pending', 'pending']);
    expect(scanned[1].offset).toBe(scanned[0].size);
  });

  it('reads a flipped state byte as drained, without breaking the checksum', () => {
    const first = encodeSpoolRecord(entry(1));
    first[STATE_BYTE_OFFSET] = DRAINED;
    expect(scanSpoolBytes(file([first, encodeSpoolRecord(entry(2))])).map((r) => r.state)).toEqual(['drained', 'pending']);
  });

  it('ignores a torn last record (payload cut short by a crash) and keeps the ones before it', () => {
    const torn = encodeSpoolRecord(entry(2));
    const bytes = Buffer.concat([encodeSpoolRecord(entry(1)), torn.subarray(0, torn.length - 5), Buffer.alloc(5 + 64)]);
    expect(scanSpoolBytes(bytes).map((r) => r.entry.streamId)).toEqual(['request-1']);
  });

  it('stops at a record whose payload no longer matches its CRC-32', () => {
    const corrupt = encodeSpoolRecord(entry(2));
    corrupt[SPOOL_HEADER_BYTES + 3] ^= 0xff;
    expect(scanSpoolBytes(file([encodeSpoolRecord(entry(1)), corrupt, encodeSpoolRecord(entry(3))])).length).toBe(1);
  });

  it('reads an empty (all zeros) file as no records', () => {
    expect(scanSpoolBytes(Buffer.alloc(4096))).toEqual([]);
  });

  it('accepts a record that ends exactly at the end of the file and refuses one a byte past it', () => {
    const record = encodeSpoolRecord(entry(1));
    const length = record.length - SPOOL_HEADER_BYTES;
    expect(payloadLengthOf(record, record.length)).toBe(length);
    expect(payloadLengthOf(record, record.length - 1)).toBeNull();
    expect(scanSpoolBytes(record)).toHaveLength(1);
  });

  it('refuses a header with an unknown state byte or a zero length', () => {
    const record = encodeSpoolRecord(entry(1));
    const badState = Buffer.from(record);
    badState[STATE_BYTE_OFFSET] = 7;
    expect(payloadLengthOf(badState, record.length)).toBeNull();
    const empty = Buffer.from(record);
    empty.writeUInt32LE(0, 4);
    expect(payloadLengthOf(empty, record.length)).toBeNull();
  });
});
