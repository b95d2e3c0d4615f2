// Appends a key command's decision to its stream at the revision it was decided on (appendAtRevision).
// When another replica (or a concurrent request) wrote first, the stream is read again and the command decided again on the new
// state, so concurrent changes either both apply or the loser gets the decider's answer (e.g. 409).
// After the append the writer waits for this replica's registry to fold it: the answer is enforced here.
import { EventStore, type AppendResult, type RecordedEvent } from '../event-store/event-store.port';
import { appendAtRevision } from '../event-store/append-at-revision';
import { newRequestId } from '../event-store/event-ids';
import { ApiError } from '../common/api-error';
import type { KeyRegistryProjection } from './key-registry.projection';
import { KEY_EVENT_SCHEMA_VERSION } from './domain/key-events';

const ATTEMPTS = 5;
const METADATA = { schemaVersion: KEY_EVENT_SCHEMA_VERSION };
const FOLD_TIMEOUT_MS = 5_000;

export interface Decided<S> {
  events: { type: string; data: unknown }[];
  /** The state after the events. */
  state: S;
}

export function decideAndAppend<S>(
  store: EventStore,
  registry: KeyRegistryProjection,
  streamId: string,
  decide: (history: RecordedEvent[]) => Decided<S>,
): Promise<S> {
  return appendAtRevision<S>(store, {
    streamId,
    maxAttempts: ATTEMPTS,
    decide: async () => {
      const history = await store.readStream(streamId);
      const { events, state } = decide(history);
      if (events.length === 0) return { answer: state };
      const expectedRevision = history.length === 0 ? -1 : history[history.length - 1].revision;
      const appended = async ({ position }: AppendResult) => {
        await registry.reached(position, FOLD_TIMEOUT_MS);
        return state;
      };
      return { events: events.map((e) => ({ id: newRequestId(), type: e.type, data: e.data, metadata: METADATA })), expectedRevision, appended };
    },
    // Each attempt reads the stream afresh.
    catchUp: async () => undefined,
    exhausted: () => new ApiError(409, 'concurrent_change', 'The key was changed concurrently too often; retry.', 'invalid_request_error'),
  });
}
