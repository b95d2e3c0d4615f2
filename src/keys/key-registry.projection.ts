// Folds the key events into this replica's in-memory KeyRegistry. Fed by the ProjectionHub like the
// other projections. Its checkpoint lives in memory; a snapshot (registry + position) in
// read-models.sqlite, written after every page that changed a key and every few seconds while the
// position moves, lets a restart resume instead of reading the whole store again. Any replica's
// snapshot is a valid start: each is a fold of the same log up to its position.
// Writers wait for their own event (`reached`) so a replica that answered a change already enforces it.
import type Database from 'better-sqlite3';
import { comparePositions, type RecordedEvent } from '../event-store/event-store.port';
import type { Projection } from '../projections/projection-runner';
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import { isKeyEvent, KeyRegistry, type KeyRegistrySnapshot } from './domain/key-registry';
import { SnapshotRow } from '../projections/snapshot-row';
import { SnapshotSchedule } from '../projections/snapshot-schedule';

export const KEY_REGISTRY_PROJECTION = 'key-registry';
const SNAPSHOT_INTERVAL_MS = 5_000;

interface Waiter {
  position: string;
  resolve: () => void;
}

export class KeyRegistryProjection implements Projection {
  readonly name = KEY_REGISTRY_PROJECTION;
  readonly registry = new KeyRegistry();
  private position: string | null = null;
  private savedPosition: string | null = null;
  private waiters: Waiter[] = [];
  private readonly snapshot: SnapshotRow | null = null;
  /** After every page that changed a key, and every 5 s while the position moves. */
  private readonly schedule: SnapshotSchedule | null = null;

  /**
   * Without a database (unit tests) nothing is snapshotted and every start folds from the beginning.
   * `logger`: context `projections`.
   */
  constructor(db: Database.Database | null = null, private readonly logger: GatewayLog = SILENT_LOG) {
    if (!db) return;
    const row = new SnapshotRow(db, 'key_registry_snapshot');
    this.snapshot = row;
    this.schedule = new SnapshotSchedule({ moved: () => this.position !== this.savedPosition, save: () => this.trySave(row) }, { everyChanges: 1, everyMs: SNAPSHOT_INTERVAL_MS });
  }

  /** Restores the snapshot (before the hub catches up) and starts the periodic snapshot. */
  start(): void {
    this.restore();
    this.schedule?.start();
  }

  stop(): void {
    this.schedule?.stop();
  }

  checkpoint(): string | null {
    return this.position;
  }

  apply(event: RecordedEvent): void {
    this.applyPage([event]);
  }

  /** Event by event, moving the checkpoint after each: a page re-applied after a poison event skips what it already folded. */
  applyPage(events: readonly RecordedEvent[]): void {
    let changes = 0;
    for (const event of events) {
      if (this.position !== null && comparePositions(event.position, this.position) <= 0) continue;
      if (isKeyEvent(event.type)) {
        this.registry.apply(event.type, event.data);
        changes++;
      }
      this.position = event.position;
    }
    if (changes > 0) this.schedule?.changed(changes);
    if (this.waiters.length > 0) this.wakeWaiters();
  }

  /** Resolves once the registry has folded the event at `position` (false after `timeoutMs`). */
  reached(position: string, timeoutMs: number): Promise<boolean> {
    if (this.position !== null && comparePositions(this.position, position) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      const waiter: Waiter = { position, resolve: () => (clearTimeout(timer), resolve(true)) };
      this.waiters.push(waiter);
    });
  }

  private wakeWaiters(): void {
    const position = this.position!;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (comparePositions(position, waiter.position) >= 0) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  /** A failed write only costs a longer replay at the next start; it never stops the fold. */
  private trySave(row: SnapshotRow): boolean {
    try {
      row.save(this.position, JSON.stringify(this.registry.toSnapshot()), Date.now());
      this.savedPosition = this.position;
      return true;
    } catch (error) {
      this.logger.error({ err: error }, `key registry snapshot not written (${(error as Error).message})`);
      return false;
    }
  }

  private restore(): void {
    const row = this.snapshot?.load();
    if (!row) return;
    try {
      this.registry.restore(JSON.parse(row.state) as KeyRegistrySnapshot);
    } catch (error) {
      this.logger.warn({ err: error }, 'key registry snapshot unreadable; replaying the store');
      return;
    }
    this.position = row.position;
    this.savedPosition = row.position;
  }
}
