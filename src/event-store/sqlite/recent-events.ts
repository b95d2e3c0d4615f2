// The events this process appended most recently, as the rows SQLite holds. A subscription woken by a
// local commit reads them from here instead of through the reader connection, whose page cache every
// commit invalidates (measured: ~90 µs per read after a commit against ~3 µs for the head position).
// Other processes' events are never here, so any gap sends the read to SQLite.
import type { EventRow } from './sqlite-schema';

/**
 * Covers a subscription's 25 ms batch window up to about 5,000 events/s; beyond that a read goes to SQLite,
 * once per page. Kept small on purpose: rows held across two young-generation GCs (about 200 ms apart at
 * 500 req/s) are promoted to the old generation, and 1024 rows made most of the gateway's promoted garbage
 * (docs/benchmarks-archive.md, finding 23).
 */
export const RECENT_EVENTS_CAPACITY = 128;

/** A ring indexed by position: a slot holds the row added last at a position with that remainder. */
export class RecentEvents {
  private readonly slots: (EventRow | null)[];

  constructor(private readonly capacity = RECENT_EVENTS_CAPACITY) {
    this.slots = new Array<EventRow | null>(capacity).fill(null);
  }

  add(rows: EventRow[]): void {
    for (const row of rows) this.slots[row.position % this.capacity] = row;
  }

  /** The rows at positions after+1 ... through, or null unless every one of them is held. */
  range(after: number, through: number): EventRow[] | null {
    const rows: EventRow[] = [];
    for (let position = after + 1; position <= through; position++) {
      const row = this.slots[position % this.capacity];
      if (row === null || row.position !== position) return null;
      rows.push(row);
    }
    return rows;
  }
}
