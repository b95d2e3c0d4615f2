// Relays UsageMeasured and CostPriced from the event store to Kafka, at least once and in store order.
// It reads the store after its checkpoint, publishes a batch, waits for the broker's acknowledgement and
// only then moves the checkpoint. It runs beside the gateway: a broker outage never touches appends,
// it only grows the lag until the broker is back.
import { SILENT_LOG, type GatewayLog } from '../../common/gateway-log';
import type { EventStore, RecordedEvent, Subscription } from '../../event-store/event-store.port';
import { relayBatchOf, type ParkedRelayEvent } from './relay-batch';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import type { BatchPublisher } from './kafka-publisher';
import type { RelayCheckpointStore } from './relay-checkpoint';
import type { RelayLease } from './relay-lease';
import { countEventsAfter, LAG_COUNT_CAP } from './relay-lag';
import { Sleeper } from '../../common/sleeper';

/** The part of the gateway's log the relay writes to (context `kafka-relay`). */
export type RelayLogger = Pick<GatewayLog, 'info' | 'warn'>;

export interface KafkaRelayOptions {
  store: EventStore;
  publisher: BatchPublisher;
  checkpoints: RelayCheckpointStore;
  topicPrefix?: string;
  /** Store events read (and messages published) per round trip. */
  batchSize?: number;
  /** Safety net next to the store subscription that wakes the relay on new events. */
  idlePollMs?: number;
  backoff?: BackoffPolicy;
  logger?: RelayLogger;
  /** How often the lag behind the store's head is counted in the background for readiness (lastStatus). */
  lagIntervalMs?: number;
  /** Runs after the broker acknowledged a batch and before its checkpoint is saved (crash tests). */
  afterPublish?: (events: RecordedEvent[]) => Promise<void>;
  /** Relay only while holding this lease (replicas sharing a store); it is also the checkpoint store. */
  lease?: RelayLease;
  /** How often a standby tries to take the lease. */
  leaseRetryMs?: number;
}

export interface RelayStatus {
  /** Store events after the checkpoint (all types), counted up to a cap. */
  eventsBehind: number;
  eventsBehindCapped: boolean;
  checkpoint: string | null;
  consecutiveFailures: number;
  /** Failed relay rounds (read, publish or checkpoint) since start: a counter for metrics. */
  totalFailures: number;
  lastError: string | null;
  publishedMessages: number;
  /** Events parked because they cannot become a message (kept in the checkpoint file). */
  parkedEvents: number;
}

const DEFAULT_BATCH_SIZE = 500;
const DEFAULT_IDLE_POLL_MS = 1_000;
const DEFAULT_LAG_INTERVAL_MS = 5_000;
const DEFAULT_LEASE_RETRY_MS = 1_000;
const LOG_EVERY_N_FAILURES = 10;

export class KafkaRelay {
  private readonly batchSize: number;
  private readonly idlePollMs: number;
  private readonly backoff: BackoffPolicy;
  private readonly logger: RelayLogger;
  private readonly idle = new Sleeper();
  private readonly retryWait = new Sleeper();
  private readonly leaseWait = new Sleeper();
  private position: string | null = null;
  private firstEventId: string | null = null;
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private consecutiveFailures = 0;
  private totalFailures = 0;
  private lastError: string | null = null;
  private publishedMessages = 0;
  private parked: ParkedRelayEvent[] = [];
  private measuredLag: { count: number; capped: boolean; at: string } | null = null;
  private lagTimer: NodeJS.Timeout | null = null;
  private measuring: Promise<void> | null = null;

  constructor(private readonly options: KafkaRelayOptions) {
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.idlePollMs = options.idlePollMs ?? DEFAULT_IDLE_POLL_MS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.logger = options.logger ?? SILENT_LOG;
  }

  /** Resolves once the checkpoint is loaded; relaying then runs in the background, broker or not. */
  async start(): Promise<void> {
    if (this.loop) return;
    this.stopping = false;
    await this.restoreCheckpoint();
    const head = await this.options.store.headPosition();
    this.subscription = this.options.store.subscribeToAll({ after: head }, () => this.idle.interrupt());
    this.loop = this.run();
    void this.measureLag();
    this.lagTimer = setInterval(() => void this.measureLag(), this.options.lagIntervalMs ?? DEFAULT_LAG_INTERVAL_MS);
    this.lagTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.lagTimer) clearInterval(this.lagTimer);
    this.lagTimer = null;
    await this.measuring;
    this.idle.interrupt();
    this.retryWait.interrupt();
    this.leaseWait.interrupt();
    await this.loop;
    this.loop = null;
    await this.subscription?.stop();
    this.subscription = null;
    await this.options.lease?.release();
    await this.options.publisher.close();
  }

  /** Counts at most `cap` events behind, now (metrics at scrape time, tests). */
  async lag(cap = LAG_COUNT_CAP): Promise<RelayStatus> {
    const behind = await countEventsAfter(this.options.store, this.position, cap);
    return this.statusWith(behind.count, behind.capped);
  }

  /**
   * The status with the lag last counted in the background (every lagIntervalMs): no store read, so
   * /readyz stays cheap however far behind the relay is or however slow the store answers.
   */
  lastStatus(): RelayStatus & { lagMeasuredAt: string | null } {
    const measured = this.measuredLag;
    return { ...this.statusWith(measured?.count ?? 0, measured?.capped ?? false), lagMeasuredAt: measured?.at ?? null };
  }

  /** Counts the lag unless a count is already running; a failed count keeps the last one. */
  measureLag(): Promise<void> {
    this.measuring ??= countEventsAfter(this.options.store, this.position, LAG_COUNT_CAP)
      .then(({ count, capped }) => void (this.measuredLag = { count, capped, at: new Date().toISOString() }))
      .catch(() => undefined)
      .finally(() => (this.measuring = null));
    return this.measuring;
  }

  private statusWith(eventsBehind: number, eventsBehindCapped: boolean): RelayStatus {
    return {
      eventsBehind,
      eventsBehindCapped,
      checkpoint: this.position,
      consecutiveFailures: this.consecutiveFailures,
      totalFailures: this.totalFailures,
      lastError: this.lastError,
      publishedMessages: this.publishedMessages,
      parkedEvents: this.parked.length,
    };
  }

  /** The events this relay parked (operators; ledger:check reads them from the checkpoint file). */
  parkedEvents(): readonly ParkedRelayEvent[] {
    return this.parked;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        if (!(await this.holdLease())) continue;
        const relayedSome = await this.relayNextBatch();
        this.recordSuccess();
        if (!relayedSome) await this.idle.sleep(this.idlePollMs);
      } catch (error) {
        this.recordFailure(error as Error);
        // Not woken by new events: a burst of appends must not hammer a broker that is down.
        await this.retryWait.sleep(backoffDelayMs(this.consecutiveFailures, this.backoff));
      }
    }
  }

  /** True while this relay may publish; a standby waits, following the holder's checkpoint for its lag. */
  private async holdLease(): Promise<boolean> {
    const lease = this.options.lease;
    if (!lease || lease.held()) return true;
    if (await lease.tryAcquire()) {
      // The previous holder moved the shared checkpoint: continue from there.
      await this.restoreCheckpoint();
      this.logger.info({ checkpoint: this.position }, 'kafka relay lease taken: relaying from this replica');
      return true;
    }
    await this.restoreCheckpoint().catch(() => undefined);
    await this.leaseWait.sleep(this.options.leaseRetryMs ?? DEFAULT_LEASE_RETRY_MS);
    return false;
  }

  private async relayNextBatch(): Promise<boolean> {
    const events = await this.options.store.readAll({ after: this.position, maxCount: this.batchSize });
    if (events.length === 0) return false;
    const { messages, parked } = relayBatchOf(events, this.options.topicPrefix);
    await this.options.publisher.publish(messages);
    await this.options.afterPublish?.(events);
    await this.saveCheckpoint(events[events.length - 1].position, parked);
    this.publishedMessages += messages.length;
    return true;
  }

  private async restoreCheckpoint(): Promise<void> {
    const saved = await this.options.checkpoints.load();
    this.firstEventId = await this.storeFirstEventId();
    if (saved?.position && saved.firstEventId !== this.firstEventId) {
      // A checkpoint from another (wiped or replaced) store could skip events; relaying again only duplicates.
      this.logger.warn({ saved }, 'kafka relay checkpoint belongs to another store; relaying from the beginning');
      this.position = null;
      this.parked = [];
      return;
    }
    this.position = saved?.position ?? null;
    this.parked = saved?.parked ?? [];
  }

  /** Parked events are recorded only with the checkpoint that passes them, so a failed batch parks nothing. */
  private async saveCheckpoint(position: string, newlyParked: ParkedRelayEvent[]): Promise<void> {
    this.firstEventId ??= await this.storeFirstEventId();
    const parked = newlyParked.length === 0 ? this.parked : [...this.parked, ...newlyParked];
    await this.options.checkpoints.save({ position, firstEventId: this.firstEventId, savedAt: new Date().toISOString(), ...(parked.length ? { parked } : {}) });
    this.position = position;
    this.parked = parked;
    for (const event of newlyParked) this.logger.warn({ parked: event }, 'kafka relay parked an event it cannot publish');
  }

  private async storeFirstEventId(): Promise<string | null> {
    const [first] = await this.options.store.readAll({ after: null, maxCount: 1 });
    return first?.id ?? null;
  }

  private recordSuccess(): void {
    if (this.consecutiveFailures > 0) {
      this.logger.info({ failures: this.consecutiveFailures }, 'kafka relay recovered');
    }
    this.consecutiveFailures = 0;
    this.lastError = null;
  }

  private recordFailure(error: Error): void {
    this.consecutiveFailures += 1;
    this.totalFailures += 1;
    this.lastError = error.message;
    if (this.consecutiveFailures === 1 || this.consecutiveFailures % LOG_EVERY_N_FAILURES === 0) {
      this.logger.warn({ failures: this.consecutiveFailures, error: error.message }, 'kafka relay cannot publish, retrying');
    }
  }
}
