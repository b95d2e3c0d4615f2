// EventStoreDB/KurrentDB adapter (selected by EVENTSTORE_CONNECTION_STRING). Subscriptions use the same
// readAll-based catch-up loop as SQLite, so the contract suite exercises one subscription implementation.
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type ReadPosition,
} from '@eventstore/db-client';
import {
  EventStore,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventHandler,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port';
import { CatchUpSubscriptions } from '../catch-up-subscription';
import * as mapping from './esdb-mapping';

const SYSTEM_EVENT_PAGE = 512;

export class EventStoreDbEventStore extends EventStore {
  private readonly subscriptions = new CatchUpSubscriptions(this);

  constructor(private readonly client: EventStoreDBClient) {
    super();
  }

  static connect(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async append(streamId: string, events: NewEvent[], options: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const expected = options.expectedRevision ?? 'any';
    try {
      const result = await this.client.appendToStream(streamId, events.map(mapping.toEventData), {
        expectedRevision: mapping.toEsdbExpectedRevision(expected),
      });
      this.wakeSubscriptions();
      const nextExpectedRevision = Number(result.nextExpectedRevision);
      // An idempotent (already written) append carries no position: the stored event knows it.
      const position = result.position ? mapping.encodePosition(result.position) : await this.positionOf(streamId, nextExpectedRevision);
      return { nextExpectedRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new WrongExpectedRevisionError(streamId, expected, mapping.fromEsdbCurrentRevision(error.actualVersion));
      }
      throw error;
    }
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const read = this.client.readStream(streamId, {
      fromRevision: BigInt(options.fromRevision ?? 0),
      maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
    });
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of read) if (mapping.isUserEvent(resolved)) events.push(mapping.toRecordedEvent(resolved));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  /** $all reads include the starting position and system events; both are skipped here. */
  async readAll({ after, maxCount }: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    let from: ReadPosition = after === null ? START : mapping.decodePosition(after);
    let skip = after;
    while (events.length < maxCount) {
      const page = await this.readAllPage(from, SYSTEM_EVENT_PAGE);
      for (const resolved of page) {
        const event = resolved.event!;
        const position = mapping.encodePosition(event.position);
        if (position !== skip && mapping.isUserEvent(resolved) && events.length < maxCount) events.push(mapping.toRecordedEvent(resolved));
      }
      if (page.length < SYSTEM_EVENT_PAGE) break;
      from = page[page.length - 1].event!.position;
      skip = mapping.encodePosition(from);
    }
    return events;
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    return this.subscriptions.open(options, handler);
  }

  async headPosition(): Promise<string | null> {
    let from: ReadPosition = END;
    for (;;) {
      const page = await this.readAllPage(from, SYSTEM_EVENT_PAGE, BACKWARDS);
      const newest = page.find(mapping.isUserEvent);
      if (newest) return mapping.encodePosition(newest.event!.position);
      if (page.length < SYSTEM_EVENT_PAGE) return null;
      from = page[page.length - 1].event!.position;
    }
  }

  async close(): Promise<void> {
    await this.subscriptions.stopAll();
    await this.client.dispose();
  }

  private async readAllPage(fromPosition: ReadPosition, maxCount: number, direction?: typeof BACKWARDS): Promise<AllStreamResolvedEvent[]> {
    const page: AllStreamResolvedEvent[] = [];
    for await (const resolved of this.client.readAll({ fromPosition, maxCount, direction })) page.push(resolved);
    return page;
  }

  private async positionOf(streamId: string, revision: number): Promise<string> {
    const [event] = await this.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    if (!event) throw new Error(`stream ${streamId} has no revision ${revision} after an idempotent append`);
    return event.position;
  }

  private wakeSubscriptions(): void {
    this.subscriptions.wakeAll();
  }
}
