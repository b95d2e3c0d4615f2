import { RecentEvents } from './recent-events';
import type { EventRow } from './sqlite-schema';

const row = (position: number): EventRow => ({
  position,
  event_id: `e${position}`,
  stream_id: 's',
  revision: position,
  type: 'E',
  data: '{}',
  metadata: '{}',
  recorded_at: '2026-11-22T00:00:00.000Z',
});

describe('RecentEvents', () => {
  it('gives a range only when it holds every position of it, and keeps the rows when it cannot', () => {
    const recent = new RecentEvents();
    recent.add([row(1), row(2), row(4)]);
    expect(recent.take(2, 4)).toBeNull();
    expect(recent.take(0, 3)).toBeNull();
    expect(recent.take(1, 2)?.map((r) => r.position)).toEqual([2]);
    expect(recent.take(0, 1)?.map((r) => r.position)).toEqual([1]);
  });

  it('releases the rows it gave, so a second read of them goes to SQLite', () => {
    const recent = new RecentEvents();
    recent.add([row(1), row(2), row(3)]);
    expect(recent.take(0, 2)?.map((r) => r.position)).toEqual([1, 2]);
    expect(recent.take(0, 2)).toBeNull();
    expect(recent.take(1, 3)).toBeNull();
    expect(recent.take(2, 3)?.map((r) => r.position)).toEqual([3]);
  });

  it('gives an empty range when nothing lies after the position', () => {
    expect(new RecentEvents().take(7, 7)).toEqual([]);
  });

  it('forgets the oldest rows beyond its capacity', () => {
    const recent = new RecentEvents(3);
    for (let position = 1; position <= 10; position++) recent.add([row(position)]);
    expect(recent.take(6, 10)).toBeNull();
    expect(recent.take(7, 10)?.map((r) => r.position)).toEqual([8, 9, 10]);
  });

  it('answers null, never another position, when an older row took the slot', () => {
    const recent = new RecentEvents(3);
    recent.add([row(5)]);
    recent.add([row(2)]);
    expect(recent.take(4, 5)).toBeNull();
    expect(recent.take(1, 2)?.map((r) => r.position)).toEqual([2]);
  });
});
