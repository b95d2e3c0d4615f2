// Worker thread that owns the SQLite write connection, so fsyncs never block the main event loop.
// It runs no event loop: it sleeps on the requests doorbell (doorbell.ts), drains every request queued
// on its port into one commit (group commit: requests that arrive during a commit's fsync share the next
// one), posts the replies and rings back.
import { isMainThread, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { configureWriter } from './sqlite-schema';
import { createBatchAppender, type BatchAppender } from './append-batch';
import { Bell, Doorbell } from './doorbell';
import { decodeAppends, encodeReplies, type AppendOutcome, type AppendRequest, type WorkerMessage, type WorkerRequest } from './append-protocol';

export interface AppendWorkerData {
  databasePath: string;
  /** The worker's end of the channel (transferred). */
  port: MessagePort;
  /** Shared doorbell cells (doorbell.ts). */
  cells: Int32Array;
}

interface Drained {
  batch: AppendRequest[];
  closing: boolean;
}

function drain(port: MessagePort): Drained {
  const drained: Drained = { batch: [], closing: false };
  for (let queued = receiveMessageOnPort(port); queued; queued = receiveMessageOnPort(port)) {
    const request = queued.message as WorkerRequest;
    if (request.kind === 'close') drained.closing = true;
    else drained.batch.push(...decodeAppends(request));
  }
  return drained;
}

function commitOrFail(appendBatch: BatchAppender, batch: AppendRequest[], recordedAt: string): AppendOutcome[] {
  try {
    return appendBatch(batch, recordedAt);
  } catch (error) {
    const message = `commit failed: ${error instanceof Error ? error.message : String(error)}`;
    return batch.map(() => ({ ok: false, failure: { kind: 'failure', message } }));
  }
}

function serve({ databasePath, port, cells }: AppendWorkerData): void {
  const requests = new Doorbell(cells, Bell.Requests);
  const replies = new Doorbell(cells, Bell.Replies);
  const post = (message: WorkerMessage): void => {
    port.postMessage(message);
    replies.ring();
  };
  const db = new Database(databasePath);
  configureWriter(db);
  const appendBatch = createBatchAppender(db);
  post({ kind: 'ready' });
  for (;;) {
    const seen = requests.rings;
    const { batch, closing } = drain(port);
    if (batch.length > 0) {
      const recordedAt = new Date().toISOString();
      const outcomes = commitOrFail(appendBatch, batch, recordedAt);
      post(encodeReplies(batch.map((request, index) => ({ requestId: request.requestId, outcome: outcomes[index] })), recordedAt));
    }
    if (closing) break;
    if (batch.length === 0) requests.waitBlocking(seen);
  }
  db.close();
  post({ kind: 'closed' });
  port.close();
}

if (!isMainThread) serve(workerData as AppendWorkerData);
