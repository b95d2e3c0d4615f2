// PostgreSQL adapter (selected by GATEWAY_POSTGRES_URL): one database shared by every replica. Appends
// are transactions (postgres-append.ts); $all is read in a global order that never skips a late commit
// (postgres-reads.ts); subscriptions are the shared catch-up loop, woken by LISTEN/NOTIFY and polling.
// Operating it: docs/operations.md ("PostgreSQL"); the ordering argument: docs/events.md.
import type { ClientConfig, Pool } from 'pg';
import {
  EventStore,
  type AppendResult,
  type EventHandler,
  type EventIdScope,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port';
import { CatchUpSubscriptions, DEFAULT_CATCH_UP_TIMING, type CatchUpTiming } from '../catch-up-subscription';
import { appendEvents } from './postgres-append';
import * as reads from './postgres-reads';
import { ensureSchema } from './postgres-schema';
import { DEFAULT_POOL_SETTINGS, createPool, poolConfig, type PostgresPoolSettings } from './postgres-pool';
import { AppendListener } from './append-listener';
import { AppendNotifier } from './append-notifier';
import { PostgresRelayLease } from './postgres-relay-lease';
import type { RelayLease, RelayLeaseSource } from '../../kafka/relay/relay-lease';

export interface PostgresStoreOptions {
  pool: PostgresPoolSettings;
  timing: CatchUpTiming;
  /** Connection problems the store recovers from by itself (idle connections dropped, LISTEN lost). */
  onConnectionError: (error: Error) => void;
}

/** NOTIFY wakes subscriptions on every commit; the poll only covers a lost LISTEN connection and a
 * transaction that held the readers' horizon back and ended without appending. */
export const POSTGRES_CATCH_UP_TIMING: CatchUpTiming = { ...DEFAULT_CATCH_UP_TIMING, pollIntervalMs: 500 };

export const DEFAULT_POSTGRES_OPTIONS: PostgresStoreOptions = {
  pool: DEFAULT_POOL_SETTINGS,
  timing: POSTGRES_CATCH_UP_TIMING,
  onConnectionError: () => undefined,
};

export class PostgresEventStore extends EventStore implements RelayLeaseSource {
  /** event_id is UNIQUE in gateway_events. */
  readonly eventIdScope: EventIdScope = 'store';
  private readonly subscriptions: CatchUpSubscriptions;
  private identity: Promise<string> | null = null;
  private readonly notifier: AppendNotifier;

  private constructor(
    private readonly pool: Pool,
    private readonly listener: AppendListener,
    private readonly connectionConfig: ClientConfig,
    timing: CatchUpTiming,
    onConnectionError: (error: Error) => void,
  ) {
    super();
    this.subscriptions = new CatchUpSubscriptions(this, timing);
    this.notifier = new AppendNotifier(pool, onConnectionError);
  }

  /** Connects, creates the schema when missing and starts listening for appends. */
  static async connect(connectionString: string, options: Partial<PostgresStoreOptions> = {}): Promise<PostgresEventStore> {
    const { pool: settings, timing, onConnectionError } = { ...DEFAULT_POSTGRES_OPTIONS, ...options };
    const pool = createPool(connectionString, settings, onConnectionError);
    try {
      await ensureSchema(pool);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
    let store: PostgresEventStore | null = null;
    const config = poolConfig(connectionString, settings);
    const listener = new AppendListener(config, () => store?.wakeSubscriptions(), onConnectionError);
    store = new PostgresEventStore(pool, listener, config, timing, onConnectionError);
    await listener.start();
    return store;
  }

  /** The pool, for tests; the store owns it and ends it on close. */
  get connectionPool(): Pool {
    return this.pool;
  }

  /** Exactly one Kafka relay across the replicas sharing this database (relay-lease.ts). */
  createRelayLease(): RelayLease {
    return new PostgresRelayLease(this.connectionConfig, this.pool);
  }

  async append(streamId: string, events: NewEvent[], options: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const result = await appendEvents(this.pool, streamId, events, options.expectedRevision ?? 'any');
    this.subscriptions.wakeAll();
    this.notifier.appended();
    return result;
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    return reads.readStream(this.pool, streamId, options.fromRevision ?? 0, options.maxCount ?? Number.MAX_SAFE_INTEGER);
  }

  async readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    return reads.readAll(this.pool, options.after, options.maxCount);
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    return this.subscriptions.open(options, handler);
  }

  async headPosition(): Promise<string | null> {
    return reads.headPosition(this.pool);
  }

  /** Read once: the identity row never changes. */
  storeId(): Promise<string> {
    this.identity ??= reads.readStoreId(this.pool).catch((error: unknown) => {
      this.identity = null;
      throw error;
    });
    return this.identity;
  }

  async close(): Promise<void> {
    await this.subscriptions.stopAll();
    await this.listener.close();
    await this.notifier.idle();
    await this.pool.end();
  }

  private wakeSubscriptions(): void {
    this.subscriptions.wakeAll();
  }
}
