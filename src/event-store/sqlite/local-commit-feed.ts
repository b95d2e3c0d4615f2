// A subscription's source in the SQLite store. The events this process commits are handed to every live
// subscription as they are acknowledged, so a subscription woken by a local commit reads them from its
// own inbox instead of querying SQLite: under closed-loop load a batch window holds more events than the
// store's small ring of recent rows, and those reads cost the main thread about 12 µs per request
// (docs/benchmarks-archive.md, finding 35). Each inbox is emptied by the reads that take it, so its events live
// no longer than one batch window. Anything else is read from SQLite: a read from the beginning, an inbox
// that does not start right after the checkpoint (another process committed in between, or the inbox
// overflowed) or that has a gap.
import type { CatchUpSource } from '../catch-up-subscription';
import type { RecordedEvent } from '../event-store.port';
import { parsePosition } from './sqlite-schema';

/** Events an inbox holds before it gives up and lets reads go to SQLite (a stalled subscription). */
export const LOCAL_FEED_CAPACITY = 4096;

export class LocalCommitFeed implements CatchUpSource {
  private inbox: RecordedEvent[] = [];
  /** Index of the first event of `inbox` not yet read. */
  private next = 0;

  constructor(
    private readonly store: CatchUpSource,
    private readonly capacity = LOCAL_FEED_CAPACITY,
  ) {}

  /** Events of one local commit, in position order. */
  offer(events: readonly RecordedEvent[]): void {
    if (this.inbox.length - this.next + events.length > this.capacity) this.clear();
    for (const event of events) this.inbox.push(event);
  }

  async readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    const page = options.after === null ? null : this.take(parsePosition(options.after), options.maxCount);
    return page ?? this.store.readAll(options);
  }

  /** The inbox's events right after `after`, or null unless it holds them without a gap. */
  private take(after: number, maxCount: number): RecordedEvent[] | null {
    this.skipThrough(after);
    const end = Math.min(this.inbox.length, this.next + maxCount);
    if (this.next === end) return null;
    for (let index = this.next; index < end; index++) {
      if (Number(this.inbox[index].position) !== after + 1 + index - this.next) return null;
    }
    const page = this.inbox.slice(this.next, end);
    this.next = end;
    if (this.next === this.inbox.length) this.clear();
    return page;
  }

  /** Drops what the subscription already has (read from SQLite, or delivered before a restart). */
  private skipThrough(after: number): void {
    while (this.next < this.inbox.length && Number(this.inbox[this.next].position) <= after) this.next++;
  }

  private clear(): void {
    this.inbox = [];
    this.next = 0;
  }
}
