// Usage that could not be appended after its output was delivered is kept here, never dropped: the
// exact events (same ids, same data) go to the spool file, and a drainer appends them to the store
// with their original ids once it writes again (the store skips ids it holds, so a crash mid-drain
// bills nothing twice), then frees the space. Counted and shown in /readyz; not ready while full.
import { SILENT_LOG, type GatewayLog } from '../../common/gateway-log';
import type { BackgroundService } from '../../common/background-service';
import type { NewEvent } from '../../event-store/event-store.port';
import { appendCharge } from '../../budgets/append-charge';
import type { WriteTrackingEventStore } from '../../event-store/write-tracking-event-store';
import { SpoolFile, SpoolFullError } from './spool-file';
import { claimAbandonedSlots, claimSpoolSlot, type SpoolSlot } from './spool-slot';

export { SPOOL_FILE_NAME } from './spool-slot';
const DRAIN_RETRY_MS = 1000;

export interface SpoolCounts {
  /** Records spooled by this process. */
  spooled: number;
  /** Records appended to the store by this process (including ones an earlier run left). */
  drained: number;
  /** Records waiting in the file now. */
  pending: number;
  used_bytes: number;
  capacity_bytes: number;
  full: boolean;
}


export class BillingSpool implements BackgroundService {
  readonly name = 'billing_spool';
  private spooled = 0;
  private drained = 0;
  private full = false;
  private draining: Promise<void> | null = null;
  private closed = false;
  private readonly retry: NodeJS.Timeout;

  private constructor(
    private readonly file: SpoolFile,
    private readonly store: WriteTrackingEventStore,
    private readonly slot: SpoolSlot,
    private readonly logger: GatewayLog,
  ) {
    store.onRecovered(() => void this.drain());
    store.holdWhile(() => (this.full ? 'the billing spool is full' : null));
    // A drain that failed for a reason the write probe cannot see is retried; nothing runs while empty.
    this.retry = setInterval(() => this.file.pending.length > 0 && !this.store.failing && void this.drain(), DRAIN_RETRY_MS);
    this.retry.unref();
  }

  /**
   * Claims this process's spool slot in `dataDir` (replicas may share it), reserves its file, drains what
   * an earlier run left there, and drains the slots of processes that are gone.
   */
  static async open(dataDir: string, capacityBytes: number, store: WriteTrackingEventStore, logger: GatewayLog = SILENT_LOG): Promise<BillingSpool> {
    const slot = claimSpoolSlot(dataDir);
    const spool = new BillingSpool(await SpoolFile.open(slot.path, capacityBytes), store, slot, logger);
    if (spool.file.pending.length > 0) {
      logger.warn(`${spool.file.pending.length} spooled billing record(s) from an earlier run; draining`);
      await spool.drain();
    }
    for (const abandoned of claimAbandonedSlots(dataDir, slot)) await spool.sweep(abandoned);
    return spool;
  }

  /** Drains another process's left-over spool file, then lets the slot go (what fails stays for the next start). */
  private async sweep(abandoned: SpoolSlot): Promise<void> {
    const file = await SpoolFile.open(abandoned.path, 0);
    try {
      if (file.pending.length > 0) this.logger.warn(`${file.pending.length} spooled billing record(s) left in ${abandoned.path}; draining`);
      while (file.pending.length > 0) {
        const record = file.pending[0];
        await appendCharge((charge) => this.store.appendAttempt(record.entry.streamId, charge), record.entry.events);
        await file.markDrained(record);
        this.drained += 1;
      }
    } catch (error) {
      this.logger.warn({ err: error, pending: file.pending.length }, `billing spool ${abandoned.path} could not drain yet; the next start tries again`);
    } finally {
      await file.close();
      abandoned.release();
    }
  }

  /** Durably keeps the events for a later append; resolves once they are synced to disk. */
  async keep(streamId: string, events: NewEvent[]): Promise<void> {
    try {
      await this.file.write({ streamId, events });
    } catch (error) {
      if (error instanceof SpoolFullError) this.markFull(error);
      throw error;
    }
    this.spooled += 1;
    if (!this.store.failing) void this.drain();
  }

  /** Appends every pending record, oldest first; stops at the first failure (retried on recovery). */
  drain(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.draining ??= this.drainAll().finally(() => (this.draining = null));
    return this.draining;
  }

  private async drainAll(): Promise<void> {
    try {
      while (this.file.pending.length > 0) {
        const record = this.file.pending[0];
        await appendCharge((charge) => this.store.appendAttempt(record.entry.streamId, charge), record.entry.events);
        await this.file.markDrained(record);
        this.drained += 1;
      }
      if (this.full) this.logger.warn('billing spool drained: billable traffic is accepted again');
      this.full = false;
    } catch (error) {
      this.logger.warn({ err: error, pending: this.file.pending.length }, 'billing spool could not drain yet; it retries when the store writes');
    }
  }

  private markFull(error: SpoolFullError): void {
    if (!this.full) this.logger.error({ err: error }, 'BILLING SPOOL FULL: billable requests are refused (503) until it drains');
    this.full = true;
  }

  counts(): SpoolCounts {
    const { pending, usedBytes, capacityBytes } = this.file;
    return { spooled: this.spooled, drained: this.drained, pending: pending.length, used_bytes: usedBytes, capacity_bytes: capacityBytes, full: this.full };
  }

  ready(): boolean {
    return !this.full;
  }

  /** Tries a last drain; whatever stays in the file is drained by the next start. */
  async stop(): Promise<void> {
    clearInterval(this.retry);
    if (this.file.pending.length > 0) await this.drain();
    if (this.file.pending.length > 0) this.logger.warn(`${this.file.pending.length} billing record(s) stay spooled for the next start`);
    this.closed = true;
    await this.file.close();
    this.slot.release();
  }
}
