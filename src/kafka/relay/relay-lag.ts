// How far the relay is behind the store's head, counted in events.
import type { EventStore } from '../../event-store/event-store.port';

/** Counting stops here: lag is for alerting, and a huge backlog must not make /readyz read it all. */
export const LAG_COUNT_CAP = 10_000;
const PAGE_SIZE = 1_000;

export interface EventCount {
  count: number;
  /** True when the count reached the cap: the real number is at least `count`. */
  capped: boolean;
}

export async function countEventsAfter(store: EventStore, after: string | null, cap: number = LAG_COUNT_CAP): Promise<EventCount> {
  const head = await store.headPosition();
  if (head === null || head === after) return { count: 0, capped: false };
  let count = 0;
  let position = after;
  while (count < cap) {
    const maxCount = Math.min(PAGE_SIZE, cap - count);
    const page = await store.readAll({ after: position, maxCount });
    count += page.length;
    if (page.length < maxCount || page[page.length - 1].position === head) return { count, capped: false };
    position = page[page.length - 1].position;
  }
  return { count, capped: true };
}
