// What a projection is to the machinery that runs it (projection-runner.ts) and parks what it cannot
// apply (parking/): a leaf both import.
import type { RecordedEvent } from '../event-store/event-store.port';

export interface Projection {
  readonly name: string;
  /** Position of the last event applied, as durably stored (null: nothing applied yet). */
  checkpoint(): string | null;
  /** Applies one event and stores its position as the checkpoint, atomically; a no-op at or before the checkpoint. */
  apply(event: RecordedEvent): void | Promise<void>;
  /** The same for consecutive events at once (one transaction for the page); events at or before the checkpoint are skipped. */
  applyPage(events: readonly RecordedEvent[]): void | Promise<void>;
}
