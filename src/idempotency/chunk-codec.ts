// A kept answer's chunks as one BLOB: each chunk as its length (4 bytes, big-endian) then its bytes, so a
// stream is replayed as the same sequence of chunks it was sent in. Cheaper than JSON of base64 (no
// encoding, a third smaller); docs/idempotency.md has the figures.
const LENGTH_BYTES = 4;

export function encodeChunks(chunks: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const chunk of chunks) {
    const length = Buffer.allocUnsafe(LENGTH_BYTES);
    length.writeUInt32BE(chunk.length);
    parts.push(length, chunk);
  }
  return Buffer.concat(parts);
}

/** Throws on a BLOB that is not a whole sequence of chunks (a row written by something else). */
export function decodeChunks(blob: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + LENGTH_BYTES > blob.length) throw new Error('kept body: truncated chunk length');
    const end = at + LENGTH_BYTES + blob.readUInt32BE(at);
    if (end > blob.length) throw new Error('kept body: truncated chunk');
    chunks.push(blob.subarray(at + LENGTH_BYTES, end));
    at = end;
  }
  return chunks;
}
