// The answer as it leaves, chunk by chunk, up to the bound past which it is not kept (its size still
// counted). Pure: the hook feeds it what Fastify sends, a string, a buffer or a stream's chunks.

export class KeptAnswer {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private overflowed = false;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer | string): void {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.bytes += buffer.length;
    if (this.bytes > this.maxBytes) {
      this.overflowed = true;
      this.chunks.length = 0;
    }
    if (!this.overflowed) this.chunks.push(buffer);
  }

  get size(): number {
    return this.bytes;
  }

  /** The chunks, or null when the answer grew past the bound. */
  kept(): Buffer[] | null {
    return this.overflowed ? null : this.chunks;
  }
}

/** Answers that charged nothing and say "try again" release the key; everything else is kept. */
export function releasesKey(status: number, charged: boolean): boolean {
  return !charged && (status === 429 || status >= 500);
}
