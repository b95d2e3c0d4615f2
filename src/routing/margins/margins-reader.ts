// The margin read model and its catch-up on read; concurrent readers share one pass.
import type Database from 'better-sqlite3';
import type { EventStore } from '../../event-store/event-store.port';
import { catchUpProjection } from '../../projections/projection-runner';
import { MarginProjection } from './margin.projection';

export class MarginsReader {
  readonly projection: MarginProjection;
  private catchingUp: Promise<unknown> | null = null;

  constructor(private readonly store: EventStore, db: Database.Database) {
    this.projection = new MarginProjection(db);
  }

  async catchUp(): Promise<void> {
    this.catchingUp ??= catchUpProjection(this.store, this.projection, 512).finally(() => (this.catchingUp = null));
    await this.catchingUp;
  }
}
