// Where a $all poll may resume. The server filters $all reads to the gateway's streams, but it still
// scans every event after the requested position: polling from the last gateway event re-scans the
// whole foreign tail (system statistics, other applications) ten times a second. So when a read at the
// head returns nothing new, the next poll first notes the $all head H (one unfiltered event, read
// before the filtered read); if the filtered read then ends short, no gateway event lies between the
// last one delivered and H, and later polls from that checkpoint start at H: the cursor moves past
// foreign events instead of reading them again.
import { comparePositions } from '../event-store.port';

export class ScanCursors {
  private readonly resumeAt = new Map<string, string>();
  private readonly atHead = new Set<string>();

  constructor(private readonly capacity = 64) {}

  /** The position to read after for a caller's `after` (never before it). */
  startFor(after: string | null): string | null {
    return this.resumeAt.get(keyOf(after)) ?? after;
  }

  /** True when the last read from `after` ended at the head: noting the head first will pay off. */
  wantsHead(after: string | null): boolean {
    return this.atHead.has(keyOf(after));
  }

  /**
   * After a filtered read for `after`: `lastReturned` is the last event handed out (null: none),
   * `short` whether the read ended at the head, `headBefore` the $all head noted before it (or null).
   */
  record(after: string | null, lastReturned: string | null, short: boolean, headBefore: string | null): void {
    const key = keyOf(after);
    this.atHead.delete(key);
    if (lastReturned !== null) this.resumeAt.delete(key);
    if (!short) return;
    const next = lastReturned ?? after;
    const nextKey = keyOf(next);
    this.atHead.add(nextKey);
    if (headBefore !== null && (next === null || comparePositions(headBefore, next) > 0)) {
      const known = this.resumeAt.get(nextKey);
      if (known === undefined || comparePositions(headBefore, known) > 0) this.resumeAt.set(nextKey, headBefore);
    }
    this.bound();
  }

  private bound(): void {
    while (this.resumeAt.size > this.capacity) this.resumeAt.delete(this.resumeAt.keys().next().value!);
    while (this.atHead.size > this.capacity) this.atHead.delete(this.atHead.keys().next().value!);
  }
}

function keyOf(position: string | null): string {
  return position ?? '';
}
