// An event store that forwards everything to another one: the base of decorators that change only
// some of its behaviour (the write tracker in front of every writer, the tests' fault injector).
import {
  EventStore,
  type AppendResult,
  type EventIdScope,
  type EventHandler,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './event-store.port';

export class DelegatingEventStore extends EventStore {
  constructor(protected readonly inner: EventStore) {
    super();
    // An optional capability stays optional: offered here exactly when the wrapped store offers it.
    if (inner.setStreamMaxAge) this.setStreamMaxAge = (streamId, maxAgeSeconds) => inner.setStreamMaxAge!(streamId, maxAgeSeconds);
  }

  get eventIdScope(): EventIdScope {
    return this.inner.eventIdScope;
  }

  storeId(): Promise<string> {
    return this.inner.storeId();
  }

  append(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
    return this.inner.append(streamId, events, options);
  }

  readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    return this.inner.subscribeToAll(options, handler);
  }

  headPosition(): Promise<string | null> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
