import type { OutgoingMessage } from '../billing-topics';
import type { BatchPublisher } from './kafka-publisher';
import { KafkaRelay } from './kafka-relay';
import type { RelayCheckpoint, RelayCheckpointStore } from './relay-checkpoint';
import { InMemoryEventStore } from '../../../test/kafka/support/in-memory-event-store';
import { billedRequestAppend, billedRequests } from '../../../test/kafka/support/billing-event-fixtures';

class FakePublisher implements BatchPublisher {
  readonly batches: OutgoingMessage[][] = [];
  down = false;
  attemptsWhileDown = 0;

  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (this.down) {
      this.attemptsWhileDown += 1;
      throw new Error('broker unreachable');
    }
    this.batches.push(messages);
  }

  async close(): Promise<void> {}

  get messages(): OutgoingMessage[] {
    return this.batches.flat();
  }
}

class MemoryCheckpoints implements RelayCheckpointStore {
  saved: RelayCheckpoint | null = null;
  async load(): Promise<RelayCheckpoint | null> {
    return this.saved;
  }
  async save(checkpoint: RelayCheckpoint): Promise<void> {
    this.saved = checkpoint;
  }
}

const silentLogger = { info: () => undefined, warn: () => undefined };
const fastBackoff = { initialMs: 5, maxMs: 20 };

async function appendRequests(store: InMemoryEventStore, count: number, prefix: string): Promise<void> {
  for (const request of billedRequests(count, prefix)) {
    const { streamId, events } = billedRequestAppend(request);
    await store.append(streamId, events);
  }
}

async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function setup(batchSize = 10) {
  const store = new InMemoryEventStore();
  const publisher = new FakePublisher();
  const checkpoints = new MemoryCheckpoints();
  const relay = new KafkaRelay({ store, publisher, checkpoints, batchSize, idlePollMs: 20, backoff: fastBackoff, logger: silentLogger });
  return { store, publisher, checkpoints, relay };
}

describe('KafkaRelay', () => {
  it('publishes every UsageMeasured and CostPriced in store order, in batches, and skips other types', async () => {
    const { store, publisher, checkpoints, relay } = setup(10);
    await appendRequests(store, 20, 'r');
    await relay.start();
    await eventually(() => checkpoints.saved?.position === '60');
    await relay.stop();

    const relayedIds = store.events.filter((event) => event.type !== 'RequestAdmitted').map((event) => event.id);
    expect(publisher.messages.map((message) => message.headers['event-id'])).toEqual(relayedIds);
    expect(publisher.batches.every((batch) => batch.length <= 10)).toBe(true);
    expect(publisher.batches.length).toBeGreaterThan(1);
    expect((await relay.lag()).publishedMessages).toBe(40);
  });

  it('relays events appended after start', async () => {
    const { store, publisher, relay } = setup();
    await relay.start();
    await appendRequests(store, 3, 'late');
    await eventually(() => publisher.messages.length === 6);
    expect((await relay.lag()).eventsBehind).toBe(0);
    await relay.stop();
  });

  it('keeps the checkpoint while the broker is down, reports lag, and catches up when it returns', async () => {
    const { store, publisher, checkpoints, relay } = setup(5);
    publisher.down = true;
    await appendRequests(store, 4, 'down');
    await relay.start();
    await eventually(() => publisher.attemptsWhileDown >= 3);

    const lagWhileDown = await relay.lag();
    expect(checkpoints.saved).toBeNull();
    expect(lagWhileDown).toMatchObject({ eventsBehind: 12, eventsBehindCapped: false, checkpoint: null, lastError: 'broker unreachable' });
    expect(lagWhileDown.consecutiveFailures).toBeGreaterThanOrEqual(3);
    // /readyz passes a cap: the count stops there instead of reading the whole backlog.
    expect(await relay.lag(5)).toMatchObject({ eventsBehind: 5, eventsBehindCapped: true });
    expect(await relay.lag(12)).toMatchObject({ eventsBehind: 12, eventsBehindCapped: false });

    publisher.down = false;
    await eventually(() => checkpoints.saved?.position === '12');
    expect(publisher.messages).toHaveLength(8);
    expect(await relay.lag()).toMatchObject({ eventsBehind: 0, consecutiveFailures: 0, lastError: null });
    await relay.stop();
  });

  it('counts its lag in the background, so the status readiness shows reads nothing from the store', async () => {
    const { store, publisher, relay } = setup(5);
    publisher.down = true;
    await appendRequests(store, 4, 'bg');
    await relay.start();
    await relay.measureLag();
    const readAll = jest.spyOn(store, 'readAll');
    const headPosition = jest.spyOn(store, 'headPosition');
    const status = relay.lastStatus();
    expect(status).toMatchObject({ eventsBehind: 12, eventsBehindCapped: false, checkpoint: null });
    expect(Number.isNaN(Date.parse(status.lagMeasuredAt!))).toBe(false);
    expect(readAll).not.toHaveBeenCalled();
    expect(headPosition).not.toHaveBeenCalled();
    publisher.down = false;
    await eventually(() => publisher.messages.length === 8);
    await relay.measureLag();
    expect(relay.lastStatus().eventsBehind).toBe(0);
    await relay.stop();
  });

  it('resumes after the saved checkpoint on restart', async () => {
    const { store, publisher, checkpoints, relay } = setup();
    await appendRequests(store, 2, 'first');
    await relay.start();
    await eventually(() => checkpoints.saved?.position === '6');
    await relay.stop();

    await appendRequests(store, 2, 'second');
    const restarted = new KafkaRelay({ store, publisher, checkpoints, idlePollMs: 20, logger: silentLogger });
    await restarted.start();
    await eventually(() => checkpoints.saved?.position === '12');
    await restarted.stop();
    const ids = publisher.messages.map((message) => message.headers['event-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(8);
  });

  it('relays from the beginning when the checkpoint belongs to another store', async () => {
    const { store, publisher, checkpoints, relay } = setup();
    await appendRequests(store, 2, 'fresh');
    checkpoints.saved = { position: '5', firstEventId: 'id-from-a-wiped-store', savedAt: '2026-11-01T00:00:00.000Z' };
    await relay.start();
    await eventually(() => publisher.messages.length === 4);
    await relay.stop();
    expect(checkpoints.saved).toMatchObject({ position: '6', firstEventId: store.events[0].id });
  });

  it('does not advance the checkpoint when it stops between publish and checkpoint', async () => {
    const store = new InMemoryEventStore();
    const publisher = new FakePublisher();
    const checkpoints = new MemoryCheckpoints();
    let releasePause: () => void = () => undefined;
    const paused = new Promise<void>((resolve) => (releasePause = resolve));
    const afterPublish = () => new Promise<void>((_, reject) => paused.then(() => reject(new Error('stopped'))));
    const relay = new KafkaRelay({ store, publisher, checkpoints, afterPublish, backoff: fastBackoff, logger: silentLogger });
    await appendRequests(store, 2, 'pause');
    await relay.start();
    await eventually(() => publisher.messages.length === 4);
    const stopped = relay.stop();
    releasePause();
    await stopped;
    expect(checkpoints.saved).toBeNull();
  });

  describe('an event it cannot publish', () => {
    async function appendHostile(store: InMemoryEventStore, tag: string): Promise<string[]> {
      const hostile = [
        { type: 'CostPriced', data: { requestId: `${tag}-1`, costUsdMicros: 5 } },
        { type: 'UsageMeasured', data: null },
        { type: 'CostPriced', data: 'garbage' },
        { type: 'CostPriced', data: { organizationId: '' } },
      ];
      for (const [n, { type, data }] of hostile.entries()) await store.append(`hostile-${tag}-${n}`, [{ id: `${tag}-${n}`, type, data }]);
      return hostile.map((_, n) => `${tag}-${n}`);
    }

    it('parks it in the checkpoint, publishes the events around it, and never parks twice', async () => {
      // One batch holds every event, so the failed attempts below include the hostile ones.
      const { store, publisher, checkpoints, relay } = setup(20);
      await appendRequests(store, 2, 'before');
      const parkedIds = await appendHostile(store, 'bad');
      await appendRequests(store, 2, 'after');
      publisher.down = true;
      await relay.start();
      await eventually(() => publisher.attemptsWhileDown >= 2);
      // A batch that failed to publish parks nothing: the record goes with the checkpoint that passes it.
      expect(checkpoints.saved).toBeNull();
      expect((await relay.lag()).parkedEvents).toBe(0);

      publisher.down = false;
      await eventually(() => checkpoints.saved?.position === String(store.events.length));
      await relay.stop();
      const published = publisher.messages.map((message) => message.headers['event-id']);
      const good = store.events.filter((event) => event.type !== 'RequestAdmitted' && !parkedIds.includes(event.id)).map((event) => event.id);
      expect(published).toEqual(good);
      expect(published).toHaveLength(8);
      expect(checkpoints.saved?.parked?.map((event) => [event.eventId, event.eventType, event.position])).toEqual([
        ['bad-0', 'CostPriced', '7'],
        ['bad-1', 'UsageMeasured', '8'],
        ['bad-2', 'CostPriced', '9'],
        ['bad-3', 'CostPriced', '10'],
      ]);
      expect(checkpoints.saved?.parked?.[0].reason).toBe('Error: event bad-0 (CostPriced) has no organizationId to key its message by');
      expect((await relay.lag()).parkedEvents).toBe(4);

      // A restart keeps the parked list and adds only what is new.
      const restarted = new KafkaRelay({ store, publisher, checkpoints, idlePollMs: 20, logger: silentLogger });
      await restarted.start();
      await appendHostile(store, 'later');
      await appendRequests(store, 1, 'last');
      await eventually(() => checkpoints.saved?.position === String(store.events.length));
      await restarted.stop();
      expect(restarted.parkedEvents().map((event) => event.eventId)).toEqual([...parkedIds, 'later-0', 'later-1', 'later-2', 'later-3']);
      expect(publisher.messages).toHaveLength(10);
    });
  });
});
