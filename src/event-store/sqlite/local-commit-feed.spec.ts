import type { RecordedEvent } from '../event-store.port';
import { LocalCommitFeed } from './local-commit-feed';

const event = (position: number): RecordedEvent => ({
  id: `e${position}`,
  type: 'E',
  streamId: 's',
  revision: position,
  position: String(position),
  data: {},
  metadata: {},
  recordedAt: '2026-11-22T00:00:00.000Z',
});

const events = (...positions: number[]) => positions.map(event);
const positionsOf = (page: RecordedEvent[]) => page.map((e) => Number(e.position));

/** A feed over a fake store whose reads answer positions after `after`, up to `head`, and are counted. */
function feedOver(head: number, capacity?: number) {
  const storeReads: string[] = [];
  const store = {
    readAll: async ({ after, maxCount }: { after: string | null; maxCount: number }) => {
      storeReads.push(String(after));
      const from = after === null ? 1 : Number(after) + 1;
      return events(...Array.from({ length: Math.max(0, Math.min(maxCount, head - from + 1)) }, (_, i) => from + i));
    },
  };
  return { feed: new LocalCommitFeed(store, capacity), storeReads };
}

describe('LocalCommitFeed', () => {
  it('serves local commits that follow the checkpoint from memory, in pages', async () => {
    const { feed, storeReads } = feedOver(10);
    feed.offer(events(4, 5));
    feed.offer(events(6));
    expect(positionsOf(await feed.readAll({ after: '3', maxCount: 2 }))).toEqual([4, 5]);
    expect(positionsOf(await feed.readAll({ after: '5', maxCount: 2 }))).toEqual([6]);
    expect(storeReads).toEqual([]);
  });

  it('reads the store once the inbox is empty', async () => {
    const { feed, storeReads } = feedOver(8);
    feed.offer(events(4));
    await feed.readAll({ after: '3', maxCount: 10 });
    expect(positionsOf(await feed.readAll({ after: '4', maxCount: 10 }))).toEqual([5, 6, 7, 8]);
    expect(storeReads).toEqual(['4']);
  });

  it('reads the store when another process committed between the checkpoint and the inbox', async () => {
    const { feed, storeReads } = feedOver(7);
    feed.offer(events(6, 7));
    expect(positionsOf(await feed.readAll({ after: '3', maxCount: 10 }))).toEqual([4, 5, 6, 7]);
    expect(storeReads).toEqual(['3']);
    expect(await feed.readAll({ after: '7', maxCount: 10 })).toEqual([]);
    expect(storeReads).toEqual(['3', '7']);
  });

  it('reads the store when the inbox has a gap, and never returns a page with one', async () => {
    const { feed, storeReads } = feedOver(6);
    feed.offer(events(4));
    feed.offer(events(6));
    expect(positionsOf(await feed.readAll({ after: '3', maxCount: 10 }))).toEqual([4, 5, 6]);
    expect(storeReads).toEqual(['3']);
  });

  it('skips inbox events the subscription already read from the store', async () => {
    const { feed, storeReads } = feedOver(9);
    feed.offer(events(4, 5, 6, 7));
    expect(positionsOf(await feed.readAll({ after: '5', maxCount: 10 }))).toEqual([6, 7]);
    expect(storeReads).toEqual([]);
  });

  it('leaves a read from the beginning to the store', async () => {
    const { feed, storeReads } = feedOver(2);
    feed.offer(events(1, 2));
    expect(positionsOf(await feed.readAll({ after: null, maxCount: 10 }))).toEqual([1, 2]);
    expect(storeReads).toEqual(['null']);
  });

  it('drops its inbox when it would exceed its capacity, so a stalled subscription reads the store', async () => {
    const { feed, storeReads } = feedOver(6, 3);
    feed.offer(events(1, 2, 3));
    feed.offer(events(4));
    expect(positionsOf(await feed.readAll({ after: '0', maxCount: 10 }))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(storeReads).toEqual(['0']);
  });

  it('holds exactly its capacity', async () => {
    const { feed, storeReads } = feedOver(3, 3);
    feed.offer(events(1, 2));
    feed.offer(events(3));
    expect(positionsOf(await feed.readAll({ after: '0', maxCount: 10 }))).toEqual([1, 2, 3]);
    expect(storeReads).toEqual([]);
  });
});
