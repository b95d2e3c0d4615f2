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

export type WorkerRequest = AppendRequest | CloseRequest;

export type AppendFailure =
  | { kind: 'wrong_expected_revision'; streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' }
  | { kind: 'failure'; message: string };

export type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; failure: AppendFailure };

export interface AppendReply {
  kind: 'appended';
  requestId: number;
  outcome: AppendOutcome;
  /** How many requests shared this commit (observable group commit). */
  batchSize: number;
}

export type WorkerMessage = { kind: 'ready' } | AppendReply | { kind: 'closed' };
