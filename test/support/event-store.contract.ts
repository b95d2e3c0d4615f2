// The behaviour every EventStore adapter must show. Adapter int-specs call registerEventStoreContract;
// tests tolerate a store that already holds other events (a shared EventStoreDB), so they only look at
// streams with this run's unique prefix and at positions after the head they saw at the start.
import { randomUUID } from 'node:crypto';
import {
  AppendOutcomeUnknownError,
  EventIdConflictError,
  WrongExpectedRevisionError,
  comparePositions,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../../src/event-store/event-store.port';
import { FaultyEventStore } from './faulty-event-store';

export interface EventStoreContractTarget {
  /** Opens the store under test; every call opens the same underlying storage (so reopening keeps events). */
  open(): Promise<EventStore>;
}

const newEvent = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ id: randomUUID(), type, data, metadata: { test: true } });

async function readEverythingAfter(store: EventStore, after: string | null, streamPrefix: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let page = await store.readAll({ after, maxCount: 100 }); page.length > 0; page = await store.readAll({ after, maxCount: 100 })) {
    events.push(...page.filter((event) => event.streamId.startsWith(streamPrefix)));
    after = page[page.length - 1].position;
  }
  return events;
}

function collector(count: number): { events: RecordedEvent[]; handler: (event: RecordedEvent) => void; done: Promise<void> } {
  const events: RecordedEvent[] = [];
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const handler = (event: RecordedEvent): void => {
    events.push(event);
    if (events.length === count) finish();
  };
  return { events, handler, done };
}

function expectAscendingPositions(events: RecordedEvent[]): void {
  for (let i = 1; i < events.length; i++) expect(comparePositions(events[i - 1].position, events[i].position)).toBe(-1);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => new Error('expected a rejection'), (error: unknown) => error);
}

export function registerEventStoreContract(adapterName: string, target: () => EventStoreContractTarget): void {
  describe(`EventStore contract: ${adapterName}`, () => {
    jest.setTimeout(60_000);
    let store: EventStore;
    let prefix: string;
    let stream: (name: string) => string;

    beforeEach(async () => {
      store = await target().open();
      prefix = `contract_${randomUUID().replace(/-/g, '')}`;
      stream = (name) => `${prefix}-${name}`;
    });

    afterEach(async () => {
      await store.close();
    });

    it('reads a stream back in order with revisions, ids, types, data and metadata', async () => {
      const events = [newEvent('A', { n: 1 }), newEvent('B', { n: 2 }), newEvent('C', { nested: { ok: true } })];
      const result = await store.append(stream('s'), events, { expectedRevision: 'no_stream' });
      const read = await store.readStream(stream('s'));
      expect(result.nextExpectedRevision).toBe(2);
      expect(read.map((e) => [e.id, e.type, e.revision, e.streamId])).toEqual(events.map((e, i) => [e.id, e.type, i, stream('s')]));
      expect(read.map((e) => e.data)).toEqual(events.map((e) => e.data));
      expect(read[0].metadata).toEqual({ test: true });
      expect(read[2].position).toBe(result.position);
      expect(Number.isNaN(Date.parse(read[0].recordedAt))).toBe(false);
    });

    it('returns an empty list for a stream that does not exist', async () => {
      expect(await store.readStream(stream('missing'))).toEqual([]);
    });

    it('orders events of different streams globally, in append order', async () => {
      const head = await store.headPosition();
      const appended: string[] = [];
      for (const name of ['x', 'y', 'x', 'z', 'y']) {
        const event = newEvent('Ordered', { name });
        await store.append(stream(name), [event]);
        appended.push(event.id);
      }
      const all = await readEverythingAfter(store, head, prefix);
      expect(all.map((e) => e.id)).toEqual(appended);
      expect(all.map((e) => e.revision)).toEqual([0, 0, 1, 0, 1]);
      expectAscendingPositions(all);
      expect(await store.headPosition()).toBe(all[all.length - 1].position);
    });

    it('reads a stream from a revision and a page of $all after a position', async () => {
      const head = await store.headPosition();
      await store.append(stream('p'), [1, 2, 3, 4, 5].map((n) => newEvent('Paged', { n })));
      const tail = await store.readStream(stream('p'), { fromRevision: 2, maxCount: 2 });
      expect(tail.map((e) => (e.data as { n: number }).n)).toEqual([3, 4]);
      const all = await readEverythingAfter(store, head, prefix);
      const afterSecond = await store.readAll({ after: all[1].position, maxCount: 2 });
      expect(afterSecond.map((e) => e.id)).toEqual([all[2].id, all[3].id]);
    });

    describe('expected revision', () => {
      it('no_stream fails once the stream exists', async () => {
        await store.append(stream('r'), [newEvent('A')], { expectedRevision: 'no_stream' });
        const error = await rejection(store.append(stream('r'), [newEvent('B')], { expectedRevision: 'no_stream' }));
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ streamId: stream('r'), expected: 'no_stream', actual: 0 });
      });

      it('stream_exists fails on a missing stream and passes on an existing one', async () => {
        const error = await rejection(store.append(stream('r'), [newEvent('A')], { expectedRevision: 'stream_exists' }));
        expect(error).toMatchObject({ expected: 'stream_exists', actual: 'no_stream' });
        await store.append(stream('r'), [newEvent('A')]);
        await expect(store.append(stream('r'), [newEvent('B')], { expectedRevision: 'stream_exists' })).resolves.toMatchObject({ nextExpectedRevision: 1 });
      });

      it('a number must equal the last revision', async () => {
        await store.append(stream('r'), [newEvent('A'), newEvent('B')]);
        const stale = await rejection(store.append(stream('r'), [newEvent('C')], { expectedRevision: 0 }));
        expect(stale).toMatchObject({ expected: 0, actual: 1 });
        const ahead = await rejection(store.append(stream('r'), [newEvent('C')], { expectedRevision: 5 }));
        expect(ahead).toBeInstanceOf(WrongExpectedRevisionError);
        await expect(store.append(stream('r'), [newEvent('C')], { expectedRevision: 1 })).resolves.toMatchObject({ nextExpectedRevision: 2 });
        expect(await store.readStream(stream('r'))).toHaveLength(3);
      });

      it('a number on a missing stream fails with no_stream', async () => {
        const error = await rejection(store.append(stream('r'), [newEvent('A')], { expectedRevision: 0 }));
        expect(error).toMatchObject({ actual: 'no_stream' });
      });

      it('any always appends', async () => {
        await store.append(stream('r'), [newEvent('A')], { expectedRevision: 'any' });
        await expect(store.append(stream('r'), [newEvent('B')], { expectedRevision: 'any' })).resolves.toMatchObject({ nextExpectedRevision: 1 });
      });

      it('a conflicting append among concurrent ones fails alone', async () => {
        await store.append(stream('taken'), [newEvent('A')]);
        const appends = Array.from({ length: 10 }, (_, i) =>
          i === 4
            ? store.append(stream('taken'), [newEvent('Conflict')], { expectedRevision: 'no_stream' })
            : store.append(stream(`free${i}`), [newEvent('Free')], { expectedRevision: 'no_stream' }),
        );
        const settled = await Promise.allSettled(appends);
        expect(settled.map((s) => s.status)).toEqual(settled.map((_, i) => (i === 4 ? 'rejected' : 'fulfilled')));
        expect(await store.readStream(stream('taken'))).toHaveLength(1);
      });
    });

    it('re-appending an event with a stored id is a successful no-op', async () => {
      const event = newEvent('Billed', { micros: 5 });
      const head = await store.headPosition();
      const first = await store.append(stream('i'), [event], { expectedRevision: 'no_stream' });
      const again = await store.append(stream('i'), [event], { expectedRevision: 'no_stream' });
      const anyAgain = await store.append(stream('i'), [event], { expectedRevision: 'any' });
      expect(again).toEqual(first);
      expect(anyAgain.nextExpectedRevision).toBe(0);
      expect(await store.readStream(stream('i'))).toHaveLength(1);
      expect((await readEverythingAfter(store, head, prefix)).map((e) => e.id)).toEqual([event.id]);
    });

    describe('idempotency (the promise on EventStore.append)', () => {
      const ids = (events: RecordedEvent[]): string[] => events.map((e) => e.id);

      it('a partially stored batch appends only the events not yet stored, once and in order', async () => {
        const head = await store.headPosition();
        const [a, b, c, d] = ['A', 'B', 'C', 'D'].map((type) => newEvent(type));
        await store.append(stream('partial'), [a, b], { expectedRevision: 'no_stream' });
        const result = await store.append(stream('partial'), [a, b, c, d], { expectedRevision: 1 });
        expect(result.nextExpectedRevision).toBe(3);
        const read = await store.readStream(stream('partial'));
        expect(ids(read)).toEqual([a.id, b.id, c.id, d.id]);
        expect(read.map((e) => e.revision)).toEqual([0, 1, 2, 3]);
        expect(result.position).toBe(read[3].position);
        expect(ids(await readEverythingAfter(store, head, prefix))).toEqual([a.id, b.id, c.id, d.id]);
      });

      it('a partially stored batch checks the expected revision against the current one', async () => {
        const [a, b] = [newEvent('A'), newEvent('B')];
        await store.append(stream('partial'), [a], { expectedRevision: 'no_stream' });
        await store.append(stream('partial'), [newEvent('Other')]);
        const error = await rejection(store.append(stream('partial'), [a, b], { expectedRevision: 0 }));
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ expected: 0, actual: 1 });
        expect(await store.readStream(stream('partial'))).toHaveLength(2);
      });

      it('an id already stored in another stream is refused (store-wide ids) or is another event (per-stream ids)', async () => {
        const head = await store.headPosition();
        const shared = newEvent('Shared');
        const companion = newEvent('Companion');
        await store.append(stream('first'), [shared]);
        const outcome = store.append(stream('second'), [shared, companion]);
        if (store.eventIdScope === 'store') {
          const error = await rejection(outcome);
          expect(error).toBeInstanceOf(EventIdConflictError);
          expect(error).toMatchObject({ streamId: stream('second'), eventId: shared.id, storedIn: stream('first') });
          expect(await store.readStream(stream('second'))).toEqual([]);
          expect(ids(await readEverythingAfter(store, head, prefix))).toEqual([shared.id]);
        } else {
          await expect(outcome).resolves.toMatchObject({ nextExpectedRevision: 1 });
          expect(ids(await store.readStream(stream('second')))).toEqual([shared.id, companion.id]);
          expect(ids(await readEverythingAfter(store, head, prefix))).toEqual([shared.id, shared.id, companion.id]);
        }
        expect(ids(await store.readStream(stream('first')))).toEqual([shared.id]);
      });

      it('a retry of an append that committed answers as the first did, with its own or the current expected revision', async () => {
        const head = await store.headPosition();
        await store.append(stream('retry'), [newEvent('Admitted')], { expectedRevision: 'no_stream' });
        const billed = [newEvent('UsageMeasured'), newEvent('CostPriced')];
        const first = await store.append(stream('retry'), billed, { expectedRevision: 0 });
        expect(first.nextExpectedRevision).toBe(2);
        await expect(store.append(stream('retry'), billed, { expectedRevision: 0 })).resolves.toEqual(first);
        await expect(store.append(stream('retry'), billed, { expectedRevision: 2 })).resolves.toEqual(first);
        await expect(store.append(stream('retry'), billed, { expectedRevision: 'any' })).resolves.toEqual(first);
        expect(await store.readStream(stream('retry'))).toHaveLength(3);
        expect(await readEverythingAfter(store, head, prefix)).toHaveLength(3);
      });

      it('a re-append after the store was reopened is still a no-op (idempotency is durable)', async () => {
        const event = newEvent('Billed');
        const first = await store.append(stream('durable'), [event]);
        await store.close();
        store = await target().open();
        await expect(store.append(stream('durable'), [event])).resolves.toEqual(first);
        await expect(store.append(stream('durable'), [event], { expectedRevision: 0 })).resolves.toEqual(first);
        expect(await store.readStream(stream('durable'))).toHaveLength(1);
      });

      it('an append whose outcome is unknown is stored exactly once when retried with the same ids and revision', async () => {
        const head = await store.headPosition();
        const faulty = new FaultyEventStore(store);
        const events = [newEvent('UsageMeasured'), newEvent('CostPriced')];
        faulty.failingAfterCommit.add('*');
        const unknown = await rejection(faulty.append(stream('unknown'), events, { expectedRevision: 'no_stream' }));
        expect(unknown).toBeInstanceOf(AppendOutcomeUnknownError);
        faulty.failingAfterCommit.clear();
        const retried = await faulty.append(stream('unknown'), events, { expectedRevision: 'no_stream' });
        const read = await store.readStream(stream('unknown'));
        expect(ids(read)).toEqual(events.map((e) => e.id));
        expect(retried).toEqual({ nextExpectedRevision: 1, position: read[1].position });
        expect(await readEverythingAfter(store, head, prefix)).toHaveLength(2);
      });
    });

    it('has an identity that stays the same when the store is reopened', async () => {
      const id = await store.storeId();
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await store.close();
      store = await target().open();
      expect(await store.storeId()).toBe(id);
    });

    it('subscribes: catches up, goes live, and resumes from a checkpoint after a reopen', async () => {
      const head = await store.headPosition();
      await store.append(stream('sub'), [newEvent('E', { n: 0 }), newEvent('E', { n: 1 })]);
      const firstRun = collector(4);
      const subscription = store.subscribeToAll({ after: head }, (e) => (e.streamId.startsWith(prefix) ? firstRun.handler(e) : undefined));
      await store.append(stream('sub'), [newEvent('E', { n: 2 })]);
      await store.append(stream('other'), [newEvent('E', { n: 3 })]);
      await firstRun.done;
      await subscription.stop();
      const checkpoint = firstRun.events[3].position;
      await store.append(stream('sub'), [newEvent('E', { n: 4 }), newEvent('E', { n: 5 })]);
      await store.close();

      store = await target().open();
      const secondRun = collector(2);
      const resumed = store.subscribeToAll({ after: checkpoint }, (e) => (e.streamId.startsWith(prefix) ? secondRun.handler(e) : undefined));
      await secondRun.done;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await resumed.stop();
      const numbers = (events: RecordedEvent[]): number[] => events.map((e) => (e.data as { n: number }).n);
      expect(numbers(firstRun.events)).toEqual([0, 1, 2, 3]);
      expect(numbers(secondRun.events)).toEqual([4, 5]);
    });

    it('retries an event whose handler failed, without skipping it', async () => {
      const head = await store.headPosition();
      await store.append(stream('retry'), [newEvent('E', { n: 0 }), newEvent('E', { n: 1 })]);
      const seen: number[] = [];
      const errors: unknown[] = [];
      const run = collector(2);
      let failOnce = true;
      const subscription = store.subscribeToAll({ after: head, onError: (error) => errors.push(error) }, (event) => {
        if (!event.streamId.startsWith(prefix)) return;
        seen.push((event.data as { n: number }).n);
        if (failOnce) {
          failOnce = false;
          throw new Error('projection unavailable');
        }
        run.handler(event);
      });
      await run.done;
      await subscription.stop();
      expect(seen).toEqual([0, 0, 1]);
      expect(errors).toHaveLength(1);
    });

    it('keeps 200 concurrent appends, each durable and in one global order', async () => {
      const head = await store.headPosition();
      const events = Array.from({ length: 200 }, (_, n) => ({ name: stream(`c${n % 20}`), event: newEvent('Concurrent', { n }) }));
      const results = await Promise.all(events.map(({ name, event }) => store.append(name, [event])));
      await store.close();
      store = await target().open();
      const all = await readEverythingAfter(store, head, prefix);
      expect(all).toHaveLength(200);
      expectAscendingPositions(all);
      expect(new Set(all.map((e) => e.id))).toEqual(new Set(events.map((e) => e.event.id)));
      expect(new Set(all.map((e) => e.position))).toEqual(new Set(results.map((r) => r.position)));
      for (let i = 0; i < 20; i++) {
        expect((await store.readStream(stream(`c${i}`))).map((e) => e.revision)).toEqual([...Array(10).keys()]);
      }
    });
  });
}
