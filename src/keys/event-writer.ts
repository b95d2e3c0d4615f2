// Appends a decision to one stream at the revision it was decided on. When another replica (or a
// concurrent request) wrote first, the stream is read again and the command decided again on the new
// state, so concurrent changes either both apply or the loser gets the decider's answer (e.g. 409).
// After the append the writer waits for this replica's registry to fold it: the answer is enforced here.
import { EventStore, WrongExpectedRevisionError, type RecordedEvent } from '../event-store/event-store.port';
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

export async function decideAndAppend<S>(
  store: EventStore,
  registry: KeyRegistryProjection,
  streamId: string,
  decide: (history: RecordedEvent[]) => Decided<S>,
): Promise<S> {
  for (let attempt = 1; ; attempt++) {
    const history = await store.readStream(streamId);
    const { events, state } = decide(history);
    if (events.length === 0) return state;
    const expectedRevision = history.length === 0 ? 'no_stream' : history[history.length - 1].revision;
    try {
      const appended = await store.append(streamId, events.map((e) => ({ id: newRequestId(), type: e.type, data: e.data, metadata: METADATA })), { expectedRevision });
      await registry.reached(appended.position, FOLD_TIMEOUT_MS);
      return state;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= ATTEMPTS) throw new ApiError(409, 'concurrent_change', 'The key was changed concurrently too often; retry.', 'invalid_request_error');
    }
  }
}
