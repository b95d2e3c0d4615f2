// Messages between the main thread and the append worker (structured-cloned, so plain data only).
import type { AppendResult, ExpectedRevision } from '../event-store.port';

export interface SerializedEvent {
  id: string;
  type: string;
  /** JSON text, serialized on the caller's thread so a bad payload fails the caller, not the batch. */
  data: string;
  metadata: string;
}

export interface AppendRequest {
  kind: 'append';
  requestId: number;
  streamId: string;
  events: SerializedEvent[];
  expectedRevision: ExpectedRevision;
}

export interface CloseRequest {
  kind: 'close';
}

/** Asked after commits made on the main thread, which never checkpoint themselves (inline-committer.ts). */
export interface CheckpointRequest {
  kind: 'checkpoint';
}

/**
 * Every append the main thread made in one tick travels in one message (one structured clone), flattened:
 * structured clone copies a flat array of strings and numbers faster than the same data as nested objects
 * (docs/benchmarks-archive.md, finding 25). Per append: requestId, streamId, expectedRevision, event count, then
 * id, type, data and metadata of each event.
 */
export interface AppendsRequest {
  kind: 'appends';
  appends: (string | number)[];
}

export type WorkerRequest = AppendsRequest | CloseRequest | CheckpointRequest;

export type AppendFailure =
  | { kind: 'wrong_expected_revision'; streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' }
  | { kind: 'event_id_conflict'; streamId: string; eventId: string; storedIn: string }
  | { kind: 'failure'; message: string };

/** `allNew`: every event of the append was inserted, at consecutive positions ending at `result.position`. */
export type AppendOutcome = { ok: true; result: AppendResult; allNew: boolean } | { ok: false; failure: AppendFailure };

export interface AppendReply {
  requestId: number;
  outcome: AppendOutcome;
}

/**
 * The replies of one commit, in one message, flattened as the requests are. Per reply: requestId, then
 * 1, nextExpectedRevision, position and allNew (1 or 0) for a success, or 0, the failure as JSON, '' and 0.
 */
export interface AppendReplies {
  kind: 'appended';
  replies: (string | number)[];
  /** How many requests shared this commit (observable group commit). */
  batchSize: number;
  /** The commit's `recorded_at`, shared by all its events. */
  recordedAt: string;
}

export type WorkerMessage = { kind: 'ready' } | AppendReplies | { kind: 'checkpointed' } | { kind: 'closed' };

export function encodeAppends(requests: AppendRequest[]): AppendsRequest {
  const appends: (string | number)[] = [];
  for (const { requestId, streamId, expectedRevision, events } of requests) {
    appends.push(requestId, streamId, expectedRevision, events.length);
    for (const { id, type, data, metadata } of events) appends.push(id, type, data, metadata);
  }
  return { kind: 'appends', appends };
}

export function decodeAppends({ appends }: AppendsRequest): AppendRequest[] {
  const requests: AppendRequest[] = [];
  let at = 0;
  while (at < appends.length) {
    const request: AppendRequest = { kind: 'append', requestId: appends[at] as number, streamId: appends[at + 1] as string, events: [], expectedRevision: appends[at + 2] as ExpectedRevision };
    const end = at + 4 + 4 * (appends[at + 3] as number);
    for (at += 4; at < end; at += 4) {
      request.events.push({ id: appends[at] as string, type: appends[at + 1] as string, data: appends[at + 2] as string, metadata: appends[at + 3] as string });
    }
    requests.push(request);
  }
  return requests;
}

export function encodeReplies(replies: AppendReply[], recordedAt: string): AppendReplies {
  const flat: (string | number)[] = [];
  for (const { requestId, outcome } of replies) {
    if (outcome.ok) flat.push(requestId, 1, outcome.result.nextExpectedRevision, outcome.result.position, outcome.allNew ? 1 : 0);
    else flat.push(requestId, 0, JSON.stringify(outcome.failure), '', 0);
  }
  return { kind: 'appended', replies: flat, batchSize: replies.length, recordedAt };
}

export function decodeReplies({ replies }: AppendReplies): AppendReply[] {
  const decoded: AppendReply[] = [];
  for (let at = 0; at < replies.length; at += 5) {
    const outcome: AppendOutcome = replies[at + 1] === 1
      ? { ok: true, result: { nextExpectedRevision: replies[at + 2] as number, position: replies[at + 3] as string }, allNew: replies[at + 4] === 1 }
      : { ok: false, failure: JSON.parse(replies[at + 2] as string) as AppendFailure };
    decoded.push({ requestId: replies[at] as number, outcome });
  }
  return decoded;
}
