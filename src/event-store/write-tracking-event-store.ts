// One view of whether the store can write, shared by every writer (admission, billing, the spool's
// drainer). After an append fails for a reason other than a revision conflict, further appends are
// refused at once (no write attempted), so new requests get 503 before any upstream is called, and a
// small probe append (to its own stream, never a billing stream) is retried until the store writes
// again. Recovery therefore does not depend on traffic. Healthy appends cost one extra callback.
import { randomUUID } from 'node:crypto';
import type { BackgroundService } from '../common/background-service';
import { DelegatingEventStore } from './delegating-event-store';
import { StoreWritesFailingError } from './store-writes-failing';
import { EventIdConflictError, WrongExpectedRevisionError, type AppendResult, type EventStore, type ExpectedRevision, type NewEvent } from './event-store.port';

/** The probe's own stream: no projection, relay or ledger check reads it. */
export const WRITE_PROBE_STREAM = 'gateway-write-probe';
export const DEFAULT_PROBE_INTERVAL_MS = 250;

export class WriteTrackingEventStore extends DelegatingEventStore implements BackgroundService {
  readonly name = 'event_store_writes';
  private failure: unknown = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private probing = false;
  private readonly listeners: Array<() => void> = [];
  private held: () => string | null = () => null;

  constructor(
    inner: EventStore,
    private readonly probeIntervalMs = DEFAULT_PROBE_INTERVAL_MS,
    private readonly onStateChange: (failing: boolean, cause: unknown) => void = () => undefined,
  ) {
    super(inner);
  }

  /** False while appends are failing (readiness, and the reason new requests are refused). */
  ready(): boolean {
    return this.failure === null;
  }

  get failing(): boolean {
    return this.failure !== null;
  }

  /** Called each time the store writes again after a failure (the spool drains then). */
  onRecovered(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Refuses appends while `reason()` names one (the billing spool when it is full). */
  holdWhile(reason: () => string | null): void {
    this.held = reason;
  }

  override append(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
    if (this.failure !== null) return Promise.reject(new StoreWritesFailingError(this.failure));
    const held = this.held();
    if (held !== null) return Promise.reject(new StoreWritesFailingError(held));
    return this.attempt(streamId, events, options);
  }

  /**
   * Appends even while failing or held (the spool's drainer, which must run to free the spool): a
   * success proves the store writes again.
   */
  async appendAttempt(streamId: string, events: NewEvent[]): Promise<AppendResult> {
    const result = await this.attempt(streamId, events);
    if (this.failure !== null) this.markRecovered();
    return result;
  }

  private attempt(streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
    return this.inner.append(streamId, events, options).catch((error: unknown) => {
      // A revision or id conflict answers this append alone; the store itself writes.
      if (!(error instanceof WrongExpectedRevisionError) && !(error instanceof EventIdConflictError)) this.markFailing(error);
      throw error;
    });
  }

  private markFailing(cause: unknown): void {
    if (this.failure !== null) return;
    this.failure = cause;
    this.onStateChange(true, cause);
    this.probeTimer = setInterval(() => void this.probe(), this.probeIntervalMs);
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    if (this.probing || this.failure === null) return;
    this.probing = true;
    try {
      const event = { id: randomUUID(), type: 'StoreWriteProbed', data: { at: new Date().toISOString() } };
      await this.inner.append(WRITE_PROBE_STREAM, [event]);
      this.markRecovered();
    } catch (error) {
      this.failure = error;
    } finally {
      this.probing = false;
    }
  }

  private markRecovered(): void {
    this.failure = null;
    this.clearProbe();
    this.onStateChange(false, null);
    for (const listener of this.listeners) listener();
  }

  private clearProbe(): void {
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
  }

  async stop(): Promise<void> {
    this.clearProbe();
  }

  override close(): Promise<void> {
    this.clearProbe();
    return super.close();
  }
}
