// The embedded default event store: one SQLite file, writes in a worker thread with group commit (or,
// while that worker is idle, on the main thread: inline-commit-policy.ts), reads on the main thread,
// subscriptions woken by local commits and by polling (other processes).
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import {
  EventStore,
  type AppendResult,
  type EventIdScope,
  type EventHandler,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port';
import { CatchUpSubscriptions, DEFAULT_CATCH_UP_TIMING, type CatchUpTiming } from '../catch-up-subscription';
import { AppendWorkerClient, type AppendWorkerOptions, type CommittedAppend } from './append-worker-client';
import { SqliteEventReader } from './sqlite-event-reader';
import { RecentEvents } from './recent-events';
import { LocalCommitFeed } from './local-commit-feed';
import { parsePosition, toRecordedEvent, type EventRow } from './sqlite-schema';
import type { SerializedEvent } from './append-protocol';

export const EVENTS_FILE_NAME = 'events.sqlite';

export class SqliteEventStore extends EventStore {
  /** event_id is UNIQUE in the events table. */
  readonly eventIdScope: EventIdScope = 'store';
  private readonly subscriptions: CatchUpSubscriptions;
  private readonly recent = new RecentEvents();
  private readonly feeds = new Set<LocalCommitFeed>();

  private constructor(
    private readonly writer: AppendWorkerClient,
    private readonly reader: SqliteEventReader,
    timing: CatchUpTiming,
  ) {
    super();
    this.subscriptions = new CatchUpSubscriptions(this, timing);
  }

  /** Opens (creating if needed) `<dataDir>/events.sqlite`. */
  static async open(dataDir: string, timing: CatchUpTiming = DEFAULT_CATCH_UP_TIMING, options?: AppendWorkerOptions): Promise<SqliteEventStore> {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, EVENTS_FILE_NAME);
    let store: SqliteEventStore | null = null;
    const writer = await AppendWorkerClient.start(path, () => store?.wakeSubscriptions(), options);
    store = new SqliteEventStore(writer, new SqliteEventReader(path), timing);
    return store;
  }

  /** Calls `listener` with the number of append requests of every commit and whether it was made on the
   * main thread (group-commit and inline-commit metrics). */
  observeCommitBatches(listener: (batchSize: number, onMainThread: boolean) => void): void {
    this.writer.onBatch = listener;
  }

  /** Commits made on the main thread so far (the worker was idle; inline-commit-policy.ts). */
  get inlineCommits(): number {
    return this.writer.inlineCommits;
  }

  /** Most append requests that shared one commit so far. */
  get largestCommitBatch(): number {
    return this.writer.largestBatch;
  }

  append(streamId: string, events: NewEvent[], options: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    let serialized: SerializedEvent[];
    try {
      serialized = events.map(serialize);
    } catch (error) {
      return Promise.reject(error);
    }
    const committed = this.writer.append({ streamId, events: serialized, expectedRevision: options.expectedRevision ?? 'any' });
    return committed.then((append) => {
      if (append.allNew) this.remember(storedRows(streamId, serialized, append));
      return append.result;
    });
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    return this.reader.readStream(streamId, options.fromRevision ?? 0, options.maxCount ?? Number.MAX_SAFE_INTEGER);
  }

  /** This process's own recent appends come from memory when they are all the store holds in the range. */
  async readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    const after = options.after === null ? 0 : parsePosition(options.after);
    const head = Number(this.reader.headPosition() ?? 0);
    const recent = this.recent.range(after, Math.min(head, after + options.maxCount));
    return recent ? recent.map(toRecordedEvent) : this.reader.readAll(options.after, options.maxCount);
  }

  /** Each subscription reads this process's commits from its own in-memory feed (local-commit-feed.ts). */
  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    const feed = new LocalCommitFeed(this);
    this.feeds.add(feed);
    const subscription = this.subscriptions.open(options, handler, feed);
    return {
      stop: () => {
        this.feeds.delete(feed);
        return subscription.stop();
      },
    };
  }

  async headPosition(): Promise<string | null> {
    return this.reader.headPosition();
  }

  async storeId(): Promise<string> {
    return this.reader.storeId();
  }

  async close(): Promise<void> {
    await this.subscriptions.stopAll();
    // The writer closes last: as the last connection it checkpoints the WAL into the main file.
    this.reader.close();
    await this.writer.close();
  }

  private remember(rows: EventRow[]): void {
    this.recent.add(rows);
    if (this.feeds.size === 0) return;
    const events = rows.map(toRecordedEvent);
    for (const feed of this.feeds) feed.offer(events);
  }

  private wakeSubscriptions(): void {
    this.subscriptions.wakeAll();
  }
}

/** The rows an append of only new events inserted: consecutive positions and revisions ending at its result. */
function storedRows(streamId: string, events: SerializedEvent[], { result, recordedAt }: CommittedAppend): EventRow[] {
  const first = Number(result.position) - events.length + 1;
  const firstRevision = result.nextExpectedRevision - events.length + 1;
  return events.map((event, index) => ({
    position: first + index,
    event_id: event.id,
    stream_id: streamId,
    revision: firstRevision + index,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    recorded_at: recordedAt,
  }));
}

function serialize(event: NewEvent): SerializedEvent {
  const data = JSON.stringify(event.data);
  if (data === undefined) throw new Error(`event ${event.id} has no JSON-serializable data`);
  return { id: event.id, type: event.type, data, metadata: JSON.stringify(event.metadata ?? {}) };
}
