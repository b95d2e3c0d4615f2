// EventStoreDB/KurrentDB adapter (selected by EVENTSTORE_CONNECTION_STRING). Subscriptions use the same
// readAll-based catch-up loop as SQLite, so the contract suite exercises one subscription implementation.
// What it promises beyond the client's defaults, and how, is in docs/operations.md ("EventStoreDB").
import { randomUUID } from 'node:crypto';
import { BACKWARDS, END, FORWARDS, START, StreamNotFoundError, type ReadPosition } from '@eventstore/db-client';
import {
  EventStore,
  comparePositions,
  type AppendResult,
  type EventHandler,
  type EventIdScope,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port';
import { CatchUpSubscriptions } from '../catch-up-subscription';
import { connectEsdbClient, type EsdbClient } from './esdb-client';
import { DEFAULT_APPEND_SETTINGS, EsdbAppender, type EsdbAppendSettings } from './esdb-append';
import { collectWithin } from './esdb-reads';
import { ScanCursors } from './scan-cursors';
import { GATEWAY_STREAM_PREFIXES, STORE_IDENTIFIED_TYPE, STORE_IDENTITY_STREAM } from './gateway-streams';
import * as mapping from './esdb-mapping';

export interface EsdbStoreOptions {
  /** Only streams starting with one of these are read from $all (server-side filter). */
  streamPrefixes: readonly string[];
  append: EsdbAppendSettings;
  readDeadlineMs: number;
}

export const DEFAULT_ESDB_STORE_OPTIONS: EsdbStoreOptions = {
  streamPrefixes: GATEWAY_STREAM_PREFIXES,
  append: DEFAULT_APPEND_SETTINGS,
  readDeadlineMs: DEFAULT_APPEND_SETTINGS.readDeadlineMs,
};

export class EventStoreDbEventStore extends EventStore {
  /** The server checks ids per stream; it keeps no index of ids across streams. */
  readonly eventIdScope: EventIdScope = 'stream';
  private readonly subscriptions = new CatchUpSubscriptions(this);
  private readonly appender: EsdbAppender;
  private readonly cursors = new ScanCursors();
  private identity: Promise<string> | null = null;

  constructor(
    private readonly client: EsdbClient,
    private readonly options: EsdbStoreOptions = DEFAULT_ESDB_STORE_OPTIONS,
  ) {
    super();
    this.appender = new EsdbAppender(client, options.append);
  }

  static connect(connectionString: string, options: Partial<EsdbStoreOptions> = {}): EventStoreDbEventStore {
    return new EventStoreDbEventStore(connectEsdbClient(connectionString), { ...DEFAULT_ESDB_STORE_OPTIONS, ...options });
  }

  async append(streamId: string, events: NewEvent[], options: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const result = await this.appender.append(streamId, events, options.expectedRevision ?? 'any');
    this.subscriptions.wakeAll();
    return result;
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const read = this.client.readStream(streamId, {
      fromRevision: BigInt(options.fromRevision ?? 0),
      maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
      direction: FORWARDS,
    });
    try {
      const events = await collectWithin(read, this.options.readDeadlineMs, `stream ${streamId}`);
      return events.filter(mapping.isUserEvent).map(mapping.toRecordedEvent);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  /**
   * A forward $all read from a position includes the event at it: one more is asked for, and events at
   * or before the start are dropped. Polls at the head resume past foreign events (scan-cursors.ts).
   */
  async readAll({ after, maxCount }: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    const headBefore = this.cursors.wantsHead(after) ? await this.lastPositionInAll() : null;
    const start = this.cursors.startFor(after);
    const asked = start === null ? maxCount : maxCount + 1;
    const page = await this.readAllPage(start === null ? START : mapping.decodePosition(start), asked, FORWARDS);
    const events: RecordedEvent[] = [];
    for (const resolved of page) {
      if (!mapping.isUserEvent(resolved) || events.length === maxCount) continue;
      const event = mapping.toRecordedEvent(resolved);
      if (start === null || comparePositions(event.position, start) > 0) events.push(event);
    }
    this.cursors.record(after, events.length > 0 ? events[events.length - 1].position : null, page.length < asked, headBefore);
    return events;
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    return this.subscriptions.open(options, handler);
  }

  async headPosition(): Promise<string | null> {
    const [newest] = (await this.readAllPage(END, 1, BACKWARDS)).filter(mapping.isUserEvent);
    return newest ? mapping.encodePosition(newest.event!.position) : null;
  }

  /** `$maxAge` on the stream (docs/idempotency.md); whole seconds, at least one, as the server counts them. */
  async setStreamMaxAge(streamId: string, maxAgeSeconds: number): Promise<void> {
    if (!Number.isSafeInteger(maxAgeSeconds) || maxAgeSeconds < 1) throw new Error(`$maxAge must be a whole number of seconds, at least 1 (got ${maxAgeSeconds})`);
    await this.client.setStreamMetadata(streamId, { maxAge: maxAgeSeconds }, { deadline: this.options.append.appendDeadlineMs });
  }

  /** The id in the identity stream's first event, written on first use (a restore keeps it, a new database does not). */
  storeId(): Promise<string> {
    this.identity ??= this.readOrCreateIdentity().catch((error: unknown) => {
      this.identity = null;
      throw error;
    });
    return this.identity;
  }

  async close(): Promise<void> {
    await this.subscriptions.stopAll();
    await this.client.dispose();
  }

  private async readOrCreateIdentity(): Promise<string> {
    const existing = await this.readIdentity();
    if (existing !== null) return existing;
    const id = randomUUID();
    // no_stream: of two replicas creating it at once, one wins and both read the winner's id.
    await this.appender.append(STORE_IDENTITY_STREAM, [{ id, type: STORE_IDENTIFIED_TYPE, data: { storeId: id } }], 'no_stream').catch(() => undefined);
    const created = await this.readIdentity();
    if (created === null) throw new Error(`the store identity stream ${STORE_IDENTITY_STREAM} could not be written`);
    return created;
  }

  private async readIdentity(): Promise<string | null> {
    const [first] = await this.readStream(STORE_IDENTITY_STREAM, { fromRevision: 0, maxCount: 1 });
    if (!first) return null;
    const storeId = (first.data as { storeId?: unknown } | null)?.storeId;
    if (typeof storeId !== 'string') throw new Error(`${STORE_IDENTITY_STREAM} holds no store id`);
    return storeId;
  }

  private readAllPage(fromPosition: ReadPosition, maxCount: number, direction: typeof FORWARDS | typeof BACKWARDS, streamPrefixes: readonly string[] | null = this.options.streamPrefixes) {
    const read = this.client.readAll({ fromPosition, maxCount, direction, streamPrefixes });
    return collectWithin(read, this.options.readDeadlineMs, '$all');
  }

  /** The newest position in $all, whatever stream it belongs to (a scan cursor's target). */
  private async lastPositionInAll(): Promise<string | null> {
    const [newest] = await this.readAllPage(END, 1, BACKWARDS, null);
    return newest?.event?.position ? mapping.encodePosition(newest.event.position) : null;
  }
}
