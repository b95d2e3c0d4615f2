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

/** Every append the main thread made in one tick travels in one message (one structured clone). */
export interface AppendsRequest {
  kind: 'appends';
  requests: AppendRequest[];
}

export type WorkerRequest = AppendsRequest | CloseRequest;

export type AppendFailure =
  | { kind: 'wrong_expected_revision'; streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' }
  | { kind: 'failure'; message: string };

/** `allNew`: every event of the append was inserted, at consecutive positions ending at `result.position`. */
export type AppendOutcome = { ok: true; result: AppendResult; allNew: boolean } | { ok: false; failure: AppendFailure };

export interface AppendReply {
  requestId: number;
  outcome: AppendOutcome;
  /** How many requests shared this commit (observable group commit). */
  batchSize: number;
}

/** The replies of one commit, in one message. */
export interface AppendReplies {
  kind: 'appended';
  replies: AppendReply[];
  /** The commit's `recorded_at`, shared by all its events. */
  recordedAt: string;
}

export type WorkerMessage = { kind: 'ready' } | AppendReplies | { kind: 'closed' };
