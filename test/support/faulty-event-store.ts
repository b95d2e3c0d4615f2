// Wraps a real event store so a test can make appends fail, as an unwritable disk or an unreachable
// EventStoreDB would.
import type { AppendResult, ExpectedRevision, NewEvent } from '../../src/event-store/event-store.port';
import { DelegatingEventStore } from '../../src/event-store/delegating-event-store';

export class FaultyEventStore extends DelegatingEventStore {
  /** Event types whose append fails while listed; `*` fails every append. */
  failing = new Set<string>();

  override append(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
    if (this.failing.has('*') || events.some((e) => this.failing.has(e.type))) return Promise.reject(new Error('SQLITE_READONLY: attempt to write a readonly database'));
    return super.append(streamId, events, options);
  }
}
