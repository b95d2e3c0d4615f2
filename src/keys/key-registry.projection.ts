// Folds the key events into this replica's in-memory KeyRegistry. Fed by the ProjectionHub like the
// other projections; the checkpoint lives in memory, so each start folds the key events from the
// beginning (they are few: one per key change). Writers wait for their own event (`reached`) so a
// replica that answered a change already enforces it.
import { comparePositions, type RecordedEvent } from '../event-store/event-store.port';
import type { Projection } from '../projections/projection-runner';
import { KeyRegistry } from './domain/key-registry';

export const KEY_REGISTRY_PROJECTION = 'key-registry';

interface Waiter {
  position: string;
  resolve: () => void;
}

export class KeyRegistryProjection implements Projection {
  readonly name = KEY_REGISTRY_PROJECTION;
  readonly registry = new KeyRegistry();
  private position: string | null = null;
  private waiters: Waiter[] = [];

  checkpoint(): string | null {
    return this.position;
  }

  apply(event: RecordedEvent): void {
    this.applyPage([event]);
  }

  /** Event by event, moving the checkpoint after each: a page re-applied after a poison event skips what it already folded. */
  applyPage(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (this.position !== null && comparePositions(event.position, this.position) <= 0) continue;
      this.registry.apply(event.type, event.data);
      this.position = event.position;
    }
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
}
