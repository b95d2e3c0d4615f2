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
  it('returns a range only when it holds every position of it', () => {
    const recent = new RecentEvents();
    recent.add([row(1), row(2), row(4)]);
    expect(recent.range(0, 2)?.map((r) => r.position)).toEqual([1, 2]);
    expect(recent.range(1, 2)?.map((r) => r.position)).toEqual([2]);
    expect(recent.range(2, 4)).toBeNull();
    expect(recent.range(0, 3)).toBeNull();
  });

  it('gives an empty range when nothing lies after the position', () => {
    expect(new RecentEvents().range(7, 7)).toEqual([]);
  });

  it('forgets the oldest rows beyond its capacity', () => {
    const recent = new RecentEvents(3);
    for (let position = 1; position <= 10; position++) recent.add([row(position)]);
    expect(recent.range(6, 10)).toBeNull();
    expect(recent.range(7, 10)?.map((r) => r.position)).toEqual([8, 9, 10]);
  });

  it('answers null, never another position, when an older row took the slot', () => {
    const recent = new RecentEvents(3);
    recent.add([row(5)]);
    recent.add([row(2)]);
    expect(recent.range(4, 5)).toBeNull();
    expect(recent.range(1, 2)?.map((r) => r.position)).toEqual([2]);
  });
});
