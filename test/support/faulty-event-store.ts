// Wraps a real event store so a test can make appends fail, as an unwritable disk or an unreachable
// EventStoreDB would.
import { EventStore, NewEvent, AppendResult, ExpectedRevision, RecordedEvent, EventHandler, Subscription, SubscribeOptions } from '../../src/event-store/event-store.port';

export class FaultyEventStore extends EventStore {
  /** Event types whose append fails while listed; `*` fails every append. */
  failing = new Set<string>();

  constructor(private readonly inner: EventStore) {
    super();
  }

  append(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
    if (this.failing.has('*') || events.some((e) => this.failing.has(e.type))) return Promise.reject(new Error('SQLITE_READONLY: attempt to write a readonly database'));
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
