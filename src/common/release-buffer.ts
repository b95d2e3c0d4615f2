// Frees a buffer's memory at once instead of at a later garbage collection. Each chunk of a request
// body is an allocation of its own (Node's HTTP parser copies it out of the socket's read buffer);
// V8 frees such memory only after a collection, which external memory triggers about every 64 MiB,
// and the C allocator keeps what the dead chunks held. Reading one 95 MiB body left some 80 MiB of
// them resident beside the live bytes; the refused bodies Node discards added 100 MiB more under 32
// concurrent uploads (docs/benchmarks.md, finding 44).

type Detachable = ArrayBuffer & { transfer?: (newByteLength: number) => ArrayBuffer };

/**
 * Releases the memory of a buffer no one else holds; its length reads 0 afterwards. Only a buffer
 * that owns its whole ArrayBuffer is released: a small `Buffer.from`/`allocUnsafe` shares Node's
 * pool with others, and a slice shares its parent's memory. `transfer(0)` detaches the ArrayBuffer,
 * which frees its backing store without waiting for the collector.
 */
export function releaseNow(buffer: Buffer): void {
  const memory = buffer.buffer as Detachable;
  if (buffer.length > 0 && buffer.byteOffset === 0 && memory.byteLength === buffer.length && memory.transfer) memory.transfer(0);
}
