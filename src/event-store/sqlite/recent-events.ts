// The events this process appended most recently, as the rows SQLite holds. A subscription woken by a
// local commit reads them from here instead of through the reader connection, whose page cache every
// commit invalidates (measured: ~90 µs per read after a commit against ~3 µs for the head position).
// Other processes' events are never here, so any gap sends the read to SQLite.
import type { EventRow } from './sqlite-schema';

/** Covers a subscription's 25 ms batch window up to about 40,000 events/s; beyond that a read goes to SQLite. */
export const RECENT_EVENTS_CAPACITY = 1024;

/**
 * A ring indexed by position: a slot holds the row added last at a position with that remainder. A row is
 * released as soon as one read has returned it. Rows held across two young-generation GCs are promoted to
 * the old generation, and rows held until overwritten made most of the gateway's promoted garbage
 * (docs/benchmarks.md, findings 23 and 27). A second subscription reading the same rows later finds them
 * gone and reads them from SQLite.
 */
export class RecentEvents {
  private readonly slots: (EventRow | null)[];

  constructor(private readonly capacity = RECENT_EVENTS_CAPACITY) {
    this.slots = new Array<EventRow | null>(capacity).fill(null);
  }

  add(rows: EventRow[]): void {
    for (const row of rows) this.slots[row.position % this.capacity] = row;
  }

  /** Takes the rows at positions after+1 ... through, or answers null (and keeps them) unless it holds them all. */
  take(after: number, through: number): EventRow[] | null {
    const rows: EventRow[] = [];
    for (let position = after + 1; position <= through; position++) {
      const row = this.slots[position % this.capacity];
      if (row === null || row.position !== position) return null;
      rows.push(row);
    }
    for (const row of rows) this.slots[row.position % this.capacity] = null;
    return rows;
  }
}
