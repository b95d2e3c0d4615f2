// Test-only event store kept in an array, for relay unit tests that must not touch disk.
import {
  EventStore,
  type AppendResult,
  type EventHandler,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../../../src/event-store/event-store.port';
import { CatchUpSubscription } from '../../../src/event-store/catch-up-subscription';

const FAST_TIMING = { pollIntervalMs: 5, retryDelayMs: 5, pageSize: 100 };

export class InMemoryEventStore extends EventStore {
  readonly events: RecordedEvent[] = [];
  private readonly subscriptions = new Set<CatchUpSubscription>();

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
    for (const subscription of this.subscriptions) subscription.wake();
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
    const subscription = new CatchUpSubscription(this, options, handler, FAST_TIMING);
    this.subscriptions.add(subscription);
    return {
      stop: async () => {
        this.subscriptions.delete(subscription);
        await subscription.stop();
      },
    };
  }

  async headPosition(): Promise<string | null> {
    return this.events.length === 0 ? null : String(this.events.length);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
  }
}
