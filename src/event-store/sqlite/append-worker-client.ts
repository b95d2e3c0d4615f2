// Main-thread side of the append worker: posts requests, matches replies, restores typed errors.
// Requests and replies travel on a MessageChannel nobody listens to; each side rings a doorbell in
// shared memory after posting (doorbell.ts), so no hand-off waits for a 'message' event.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { workerEntry } from '../../common/worker-entry';
import { EventIdConflictError, WrongExpectedRevisionError, type AppendResult } from '../event-store.port';
import { decodeReplies, encodeAppends, type AppendFailure, type AppendReply, type AppendRequest, type WorkerMessage } from './append-protocol';
import { Bell, Doorbell, newDoorbellCells } from './doorbell';
import type { AppendWorkerData } from './append-worker';

/** A durable append: its result, and whether all its events are new rows recorded at `recordedAt`. */
export interface CommittedAppend {
  result: AppendResult;
  allNew: boolean;
  recordedAt: string;
}

interface PendingAppend {
  resolve(committed: CommittedAppend): void;
  reject(error: Error): void;
}

interface WorkerLink {
  worker: Worker;
  port: MessagePort;
  requests: Doorbell;
  replies: Doorbell;
}

export class AppendWorkerClient {
  private nextRequestId = 1;
  private readonly pending = new Map<number, PendingAppend>();
  /** Appends of the current event-loop turn, posted together once its I/O callbacks have run (setImmediate). */
  private outbox: AppendRequest[] = [];
  private listening = false;
  private failure: Error | null = null;
  private closed: Promise<void> | null = null;
  /** Largest number of requests that shared one commit so far (observes group commit). */
  largestBatch = 0;
  /** Told every commit's batch size (metrics); null when nobody listens. */
  onBatch: ((batchSize: number) => void) | null = null;

  private constructor(private readonly link: WorkerLink, private readonly onCommitted: () => void) {
    link.worker.on('error', (error) => this.fail(error));
    link.worker.on('exit', (code) => this.fail(new Error(`event store append worker exited (code ${code})`)));
  }

  static async start(databasePath: string, onCommitted: () => void): Promise<AppendWorkerClient> {
    const { file, execArgv } = workerEntry(__filename, 'append-worker');
    const channel = new MessageChannel();
    const cells = newDoorbellCells();
    const data: AppendWorkerData = { databasePath, port: channel.port2, cells };
    const worker = new Worker(file, { workerData: data, transferList: [channel.port2], execArgv });
    const link: WorkerLink = { worker, port: channel.port1, requests: new Doorbell(cells, Bell.Requests), replies: new Doorbell(cells, Bell.Replies) };
    await untilReady(link);
    return new AppendWorkerClient(link, onCommitted);
  }

  append(request: Omit<AppendRequest, 'kind' | 'requestId'>): Promise<CommittedAppend> {
    if (this.failure) return Promise.reject(this.failure);
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      if (this.outbox.length === 0) setImmediate(() => this.post());
      this.outbox.push({ kind: 'append', requestId, ...request });
    });
  }

  /** Sends this tick's appends; a no-op when close() already sent them. */
  private post(): void {
    if (this.outbox.length === 0) return;
    const requests = this.outbox;
    this.outbox = [];
    if (this.failure) return;
    this.send(encodeAppends(requests));
    if (!this.listening) void this.listen();
  }

  private send(message: unknown): void {
    this.link.port.postMessage(message);
    this.link.requests.ring();
  }

  /** Takes replies as the worker rings, until no append is waiting. */
  private async listen(): Promise<void> {
    this.listening = true;
    while (this.pending.size > 0 && !this.failure) {
      const seen = this.link.replies.rings;
      this.takeReplies();
      if (this.pending.size === 0) break;
      await this.link.replies.waitAsync(seen);
    }
    this.listening = false;
  }

  private takeReplies(): void {
    let committed = false;
    for (let queued = receiveMessageOnPort(this.link.port); queued; queued = receiveMessageOnPort(this.link.port)) {
      const message = queued.message as WorkerMessage;
      if (message.kind !== 'appended') continue;
      committed = true;
      this.largestBatch = Math.max(this.largestBatch, message.batchSize);
      this.onBatch?.(message.batchSize);
      for (const reply of decodeReplies(message)) this.settle(reply, message.recordedAt);
    }
    if (committed) this.onCommitted();
  }

  /** Lets the worker commit what it already received, then waits for the thread to exit. */
  close(): Promise<void> {
    if (this.closed) return this.closed;
    this.closed = this.failure
      ? Promise.resolve()
      : new Promise((resolve) => {
          this.link.worker.once('exit', () => resolve());
          if (this.outbox.length > 0) this.post();
          this.send({ kind: 'close' });
        });
    return this.closed;
  }

  private settle(reply: AppendReply, recordedAt: string): void {
    const waiting = this.pending.get(reply.requestId);
    if (!waiting) return;
    this.pending.delete(reply.requestId);
    if (reply.outcome.ok) waiting.resolve({ result: reply.outcome.result, allNew: reply.outcome.allNew, recordedAt });
    else waiting.reject(toError(reply.outcome.failure));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

/** Resolves on the worker's 'ready'; rejects when it fails to open the store. */
function untilReady({ worker, port, replies }: WorkerLink): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    const onExit = (code: number): void => reject(new Error(`event store append worker exited (code ${code}) before it was ready`));
    worker.once('error', onError);
    worker.once('exit', onExit);
    const check = (): void => {
      const seen = replies.rings;
      const first = receiveMessageOnPort(port)?.message as WorkerMessage | undefined;
      if (first === undefined) {
        const ringing = replies.waitAsync(seen);
        if (ringing) void ringing.then(check);
        else check();
        return;
      }
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (first.kind === 'ready') resolve();
      else reject(new Error(`unexpected first message from append worker: ${first.kind}`));
    };
    check();
  });
}

function toError(failure: AppendFailure): Error {
  if (failure.kind === 'wrong_expected_revision') {
    return new WrongExpectedRevisionError(failure.streamId, failure.expected, failure.actual);
  }
  if (failure.kind === 'event_id_conflict') return new EventIdConflictError(failure.streamId, failure.eventId, failure.storedIn);
  return new Error(failure.message);
}
