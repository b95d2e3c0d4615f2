// The last revision of request and idempotency-key streams this connection wrote, so that the next append
// to one (a request's billing after its admission, a key's recorded answer after its claim) skips the
// `MAX(revision)` lookup: about 10 µs of the append worker's CPU per request, measured on the store's own
// batch appender, and for a key one more read of a randomly placed index page. Only these streams: each is
// written by the one process serving its request (a key's by the process that claimed it), so the
// remembered revision is nearly always current. When it is not (another connection appended meanwhile: a
// replica taking over an expired claim), it can only be too low, never too high (events are never deleted
// from the SQLite store), so the insert at the next revision hits UNIQUE (stream_id, revision) and the
// batch runs again the careful way, which reads the revision from the table.
import { IDEMPOTENCY_STREAM_PREFIX, REQUEST_STREAM_PREFIX } from '../event-ids';

const REMEMBERED_PREFIXES = [REQUEST_STREAM_PREFIX, IDEMPOTENCY_STREAM_PREFIX];

const remembered = (streamId: string): boolean => REMEMBERED_PREFIXES.some((prefix) => streamId.startsWith(prefix));

export class RememberedRevisions {
  private readonly revisions = new Map<string, number>();

  constructor(private readonly capacity = 8192) {}

  get(streamId: string): number | undefined {
    return this.revisions.get(streamId);
  }

  /**
   * After a commit: `streamId` now ends at `revision` (request and key streams only). Past the capacity everything is
   * forgotten at once: a request's appends follow each other within its lifetime, so losing them costs a
   * lookup each for the requests in flight, and keeping an order to evict by cost more than that.
   */
  committed(streamId: string, revision: number): void {
    if (!remembered(streamId)) return;
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
