// Test-only event store kept in an array, for relay unit tests that must not touch disk.
import { randomUUID } from 'node:crypto';
import {
  EventStore,
  type AppendResult,
  type EventHandler,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../../../src/event-store/event-store.port';
import { CatchUpSubscriptions } from '../../../src/event-store/catch-up-subscription';

const FAST_TIMING = { pollIntervalMs: 5, retryDelayMs: 5, pageSize: 100, batchWindowMs: 0 };

export class InMemoryEventStore extends EventStore {
  readonly events: RecordedEvent[] = [];
  readonly eventIdScope = 'store' as const;
  readonly identity = randomUUID();
  private readonly subscriptions = new CatchUpSubscriptions(this);

  async storeId(): Promise<string> {
    return this.identity;
  }

  async append(streamId: string, events: NewEvent[]): Promise<AppendResult> {
    for (const event of events) {
      if (this.events.some((stored) => stored.id === event.id)) continue;
      const revision = this.events.filter((stored) => stored.streamId === streamId).length;
      this.events.push({
        ...event,
        streamId,
        revision,
        position: String(this.events.length + 1),
        metadata: event.metadata ?? {},
        recordedAt: new Date().toISOString(),
      });
    }
    this.subscriptions.wakeAll();
    const streamEvents = this.events.filter((stored) => stored.streamId === streamId);
    return { nextExpectedRevision: streamEvents.length - 1, position: String(this.events.length) };
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    return this.events.filter((event) => event.streamId === streamId);
  }

  async readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    const start = options.after === null ? 0 : Number(options.after);
    return this.events.slice(start, start + options.maxCount);
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    return this.subscriptions.open(options, handler);
  }

  async headPosition(): Promise<string | null> {
    return this.events.length === 0 ? null : String(this.events.length);
  }

  async close(): Promise<void> {
    await this.subscriptions.stopAll();
  }
}
