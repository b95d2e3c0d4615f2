// Main-thread side of the append worker: posts requests, matches replies, restores typed errors. When
// the worker is idle (InlineCommitPolicy) a tick's appends are committed on this thread instead, by the
// same batch appender on a connection of its own (inline-committer.ts), and settled the same way.
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../common/worker-entry';
import { EventIdConflictError, WrongExpectedRevisionError, type AppendResult } from '../event-store.port';
import { decodeReplies, encodeAppends, type AppendFailure, type AppendReply, type AppendRequest, type WorkerMessage } from './append-protocol';
import type { AppendWorkerData } from './append-worker';
import { InlineCommitPolicy, type InlineCommitTiming } from './inline-commit-policy';
import { InlineCommitter } from './inline-committer';

/** Shortest window the event loop's utilization is read over: shorter ones are one turn's noise. */
const LOOP_WINDOW_MS = 5;

export interface AppendWorkerOptions {
  /** Commit on the main thread while the worker is idle (GATEWAY_STORE_INLINE_COMMITS, on by default). */
  inlineCommits: boolean;
  /** When a commit counts as idle enough to be inline (tests); DEFAULT_INLINE_COMMIT_TIMING otherwise. */
  inlineTiming?: InlineCommitTiming;
}

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

export class AppendWorkerClient {
  private nextRequestId = 1;
  private readonly pending = new Map<number, PendingAppend>();
  /** Appends of the current event-loop turn, posted together once its I/O callbacks have run (setImmediate). */
  private outbox: AppendRequest[] = [];
  private failure: Error | null = null;
  private closed: Promise<void> | null = null;
  /** Append requests posted to the worker and not answered yet. */
  private inFlight = 0;
  /** A checkpoint asked of the worker and not done yet: no inline commit meanwhile, whose new WAL frames
   * would keep the checkpoint from completing and so the WAL from restarting. */
  private checkpointPending = false;
  private readonly policy: InlineCommitPolicy;
  /** The event loop's utilization over the last window (at least LOOP_WINDOW_MS), and where that window ends. */
  private loopUtilization = 0;
  private loopMark = performance.eventLoopUtilization();
  private loopMarkAt = performance.now();
  /** Largest number of requests that shared one commit so far (observes group commit). */
  largestBatch = 0;
  /** Commits made on the main thread so far. */
  inlineCommits = 0;
  /** Told every commit's batch size and whether it was made inline (metrics); null when nobody listens. */
  onBatch: ((batchSize: number, onMainThread: boolean) => void) | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly onCommitted: () => void,
    private inline: InlineCommitter | null,
    timing: InlineCommitTiming | undefined,
  ) {
    this.policy = new InlineCommitPolicy(timing);
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'checkpointed') this.checkpointPending = false;
      if (message.kind !== 'appended') return;
      const replies = decodeReplies(message);
      this.inFlight -= replies.length;
      this.policy.commitEnded(performance.now());
      this.delivered(message.batchSize, false, replies, message.recordedAt);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`event store append worker exited (code ${code})`)));
  }

  static start(databasePath: string, onCommitted: () => void, options: AppendWorkerOptions = { inlineCommits: true }): Promise<AppendWorkerClient> {
    const { file, execArgv } = workerEntry(__filename, 'append-worker');
    const data: AppendWorkerData = { databasePath };
    const worker = new Worker(file, { workerData: data, execArgv });
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      worker.once('error', onError);
      worker.once('message', (message: WorkerMessage) => {
        worker.off('error', onError);
        if (message.kind !== 'ready') return reject(new Error(`unexpected first message from append worker: ${message.kind}`));
        try {
          const inline = options.inlineCommits ? InlineCommitter.open(databasePath) : null;
          resolve(new AppendWorkerClient(worker, onCommitted, inline, options.inlineTiming));
        } catch (error) {
          void worker.terminate();
          reject(error as Error);
        }
      });
    });
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
    if (this.failure || this.commitInline(requests)) return;
    this.inFlight += requests.length;
    this.worker.postMessage(encodeAppends(requests));
  }

  /** Commits `requests` on this thread when the policy allows it; false when the worker must take them. */
  private commitInline(requests: AppendRequest[]): boolean {
    // Under load a commit is nearly always in flight: decided here, before reading any clock.
    if (this.inline === null || this.checkpointPending || this.inFlight > 0) return false;
    const now = performance.now();
    if (!this.policy.mayCommitInline(now, this.inFlight, this.utilizationAt(now))) return false;
    const commit = this.inline.commit(requests);
    if (commit === null) return false;
    this.inlineCommits += 1;
    this.policy.inlineCommitEnded(performance.now(), commit.durationMs);
    if (this.inline.takeCheckpointDue()) this.askForCheckpoint();
    this.delivered(requests.length, true, requests.map((request, index) => ({ requestId: request.requestId, outcome: commit.outcomes[index] })), commit.recordedAt);
    return true;
  }

  private askForCheckpoint(): void {
    this.checkpointPending = true;
    this.worker.postMessage({ kind: 'checkpoint' });
  }

  /** Event-loop utilization since the previous reading, read at most once per LOOP_WINDOW_MS. */
  private utilizationAt(now: number): number {
    if (now - this.loopMarkAt >= LOOP_WINDOW_MS) {
      const mark = performance.eventLoopUtilization();
      this.loopUtilization = performance.eventLoopUtilization(mark, this.loopMark).utilization;
      this.loopMark = mark;
      this.loopMarkAt = now;
    }
    return this.loopUtilization;
  }

  private delivered(batchSize: number, onMainThread: boolean, replies: AppendReply[], recordedAt: string): void {
    this.largestBatch = Math.max(this.largestBatch, batchSize);
    this.onBatch?.(batchSize, onMainThread);
    for (const reply of replies) this.settle(reply, recordedAt);
    this.onCommitted();
  }

  /** Lets the worker commit what it already received, then waits for the thread to exit. */
  close(): Promise<void> {
    if (this.closed) return this.closed;
    this.post();
    // The main thread's connection closes first: the worker's, the last, checkpoints the WAL into the file.
    this.inline?.close();
    this.inline = null;
    this.closed = this.failure
      ? Promise.resolve()
      : new Promise((resolve) => {
          this.worker.once('exit', () => resolve());
          this.worker.postMessage({ kind: 'close' });
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

function toError(failure: AppendFailure): Error {
  if (failure.kind === 'wrong_expected_revision') {
    return new WrongExpectedRevisionError(failure.streamId, failure.expected, failure.actual);
  }
  if (failure.kind === 'event_id_conflict') return new EventIdConflictError(failure.streamId, failure.eventId, failure.storedIn);
  return new Error(failure.message);
}
