// Wraps a real event store so a test can make appends fail, as an unwritable disk or an unreachable
// EventStoreDB would, or lose the answer of an append that committed (a timeout after the write).
import { AppendOutcomeUnknownError, type AppendResult, type ExpectedRevision, type NewEvent } from '../../src/event-store/event-store.port';
import { DelegatingEventStore } from '../../src/event-store/delegating-event-store';

export class FaultyEventStore extends DelegatingEventStore {
  /** Event types whose append fails while listed; `*` fails every append. */
  failing = new Set<string>();
  /** Event types whose append commits and then fails as if its answer was lost; `*` for every append. */
  failingAfterCommit = new Set<string>();

  override append(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
    if (this.matches(this.failing, events)) return Promise.reject(new Error('SQLITE_READONLY: attempt to write a readonly database'));
    const appended = super.append(streamId, events, options);
    if (!this.matches(this.failingAfterCommit, events)) return appended;
    return appended.then(() => Promise.reject(new AppendOutcomeUnknownError(streamId, new Error('deadline exceeded after the write'))));
  }

  private matches(types: Set<string>, events: NewEvent[]): boolean {
    return types.size > 0 && (types.has('*') || events.some((e) => types.has(e.type)));
  }
}
