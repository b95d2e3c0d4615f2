// Worker thread that owns the SQLite write connection, so fsyncs never block the main event loop.
// Requests that arrive while a commit is running queue up and are drained into the next commit.
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { configureWriter } from './sqlite-schema';
import { createBatchAppender } from './append-batch';
import { decodeAppends, encodeReplies, type AppendOutcome, type AppendRequest, type WorkerMessage, type WorkerRequest } from './append-protocol';

export interface AppendWorkerData {
  databasePath: string;
}

function serve(port: MessagePort, { databasePath }: AppendWorkerData): void {
  const db = new Database(databasePath);
  configureWriter(db);
  const appendBatch = createBatchAppender(db);
  let pending: AppendRequest[] = [];
  let closing = false;
  let checkpointAsked = false;
  let scheduled = false;

  const post = (message: WorkerMessage): void => port.postMessage(message);

  function flush(): void {
    scheduled = false;
    drainQueuedMessages();
    const batch = pending;
    pending = [];
    const recordedAt = new Date().toISOString();
    if (batch.length > 0) reply(batch, commitOrFail(batch, recordedAt), recordedAt);
    if (checkpointAsked) checkpoint();
    if (closing) {
      db.close();
      post({ kind: 'closed' });
      port.close();
    }
  }

  function drainQueuedMessages(): void {
    for (let queued = receiveMessageOnPort(port); queued; queued = receiveMessageOnPort(port)) {
      accept(queued.message as WorkerRequest);
    }
  }

  /** PASSIVE: copies what no reader still needs and never waits; the next writer restarts the WAL. Made
   * after the batch's commit, so it is complete unless a reader or another process holds frames back. */
  function checkpoint(): void {
    checkpointAsked = false;
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy with another process's checkpoint: that one does the work, and the next request tries again.
    }
    post({ kind: 'checkpointed' });
  }

  function commitOrFail(batch: AppendRequest[], recordedAt: string): AppendOutcome[] {
    try {
      return appendBatch(batch, recordedAt);
    } catch (error) {
      const message = `commit failed: ${error instanceof Error ? error.message : String(error)}`;
      return batch.map(() => ({ ok: false, failure: { kind: 'failure', message } }));
    }
  }

  function reply(batch: AppendRequest[], outcomes: AppendOutcome[], recordedAt: string): void {
    post(encodeReplies(batch.map((request, index) => ({ requestId: request.requestId, outcome: outcomes[index] })), recordedAt));
  }

  function accept(request: WorkerRequest): void {
    if (request.kind === 'close') closing = true;
    else if (request.kind === 'checkpoint') checkpointAsked = true;
    else pending.push(...decodeAppends(request));
  }

  port.on('message', (request: WorkerRequest) => {
    accept(request);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
  post({ kind: 'ready' });
}

if (parentPort) serve(parentPort, workerData as AppendWorkerData);
