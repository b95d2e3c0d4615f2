// Optimistic concurrency, written once: append events at the revision they were decided on; when
// another writer got there first, catch up with what it wrote and decide again. Used by the key
// commands (keys/decide-and-append.ts), budget holds and rate-limit slice leases.
//
// A success means the events are now at expectedRevision+1 .. expectedRevision+n, so the caller may fold
// them there. The store's idempotency (EventStore.append) does not promise that on its own: an append
// whose event ids are all stored already (a retried hold or lease whose first attempt committed) is
// answered without writing and whatever the expected revision, with the revision of the stored events.
// Such an answer at any other revision is handled as a conflict: the caller catches up, which reads the
// events where they really are, and decides again, instead of folding them at a revision they do not hold.
import { WrongExpectedRevisionError, type AppendResult, type EventStore, type NewEvent } from './event-store.port';

export type RevisionDecision<T> =
  /** Nothing to append: the answer as decided (a refusal, or a command that changes nothing). */
  | { answer: T }
  /** `expectedRevision` -1: the stream must not exist yet. `appended` folds them and makes the answer. */
  | { events: NewEvent[]; expectedRevision: number; appended(result: AppendResult): T | Promise<T> };

export interface AppendAtRevision<T> {
  streamId: string;
  /** Appends tried before giving up (each conflict costs one). */
  maxAttempts: number;
  /** Decides on the state folded so far (a throw ends the attempt as it is). */
  decide(): RevisionDecision<T> | Promise<RevisionDecision<T>>;
  /** Folds what other writers appended to the stream since the revision folded here. */
  catchUp(): Promise<void>;
  /** What a failed append (other than a conflict) is thrown as; as it is when absent. */
  appendFailed?(error: unknown): unknown;
  /** What is thrown when every attempt conflicted. */
  exhausted(): unknown;
}

export async function appendAtRevision<T>(store: Pick<EventStore, 'append'>, steps: AppendAtRevision<T>): Promise<T> {
  for (let attempt = 0; attempt < steps.maxAttempts; attempt++) {
    const decision = await steps.decide();
    if ('answer' in decision) return decision.answer;
    const { events, expectedRevision } = decision;
    let result: AppendResult;
    try {
      result = await store.append(steps.streamId, events, { expectedRevision: expectedRevision < 0 ? 'no_stream' : expectedRevision });
      if (result.nextExpectedRevision !== expectedRevision + events.length) throw new WrongExpectedRevisionError(steps.streamId, expectedRevision, result.nextExpectedRevision);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw steps.appendFailed ? steps.appendFailed(error) : error;
      await steps.catchUp();
      continue;
    }
    return decision.appended(result);
  }
  throw steps.exhausted();
}
