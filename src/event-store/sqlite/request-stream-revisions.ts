// The last revision of request streams this connection wrote, so that the next append to one (a request's
// billing after its admission) skips the `MAX(revision)` lookup: about 10 µs of the append worker's CPU
// per request, measured on the store's own batch appender. Only request streams: each is written by the
// one process serving its request, so the remembered revision is nearly always current. When it is not
// (another connection appended meanwhile), it can only be too low, never too high (events are never
// deleted from the SQLite store), so the insert at the next revision hits UNIQUE (stream_id, revision)
// and the batch runs again the careful way, which reads the revision from the table.
const REQUEST_STREAM_PREFIX = 'request-';

export class RequestStreamRevisions {
  private readonly revisions = new Map<string, number>();

  constructor(private readonly capacity = 8192) {}

  get(streamId: string): number | undefined {
    return this.revisions.get(streamId);
  }

  /**
   * After a commit: `streamId` now ends at `revision` (request streams only). Past the capacity everything is
   * forgotten at once: a request's appends follow each other within its lifetime, so losing them costs a
   * lookup each for the requests in flight, and keeping an order to evict by cost more than that.
   */
  committed(streamId: string, revision: number): void {
    if (!streamId.startsWith(REQUEST_STREAM_PREFIX)) return;
    if (this.revisions.size >= this.capacity && !this.revisions.has(streamId)) this.revisions.clear();
    this.revisions.set(streamId, revision);
  }

  forget(streamId: string): void {
    this.revisions.delete(streamId);
  }

  get size(): number {
    return this.revisions.size;
  }
}
