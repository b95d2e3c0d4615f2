// Folds ModelStatusChanged into model -> {status, observedAt}, persisted with its checkpoint so a
// restart resumes instead of rescanning the whole store.
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { ModelStatusChangedV1 } from '../../billing/billing.events';
import { CheckpointStore, checkpointedPages } from '../read-model-db';
import type { Projection } from '../projection-runner';
import { nextModelStatus, type ModelStatusEntry } from './model-status.fold';

export const MODEL_STATUS_PROJECTION = 'model-status';
export const MODEL_STATUS_TABLES = ['model_status'];

interface StatusRow {
  model: string;
  status: 'warm' | 'cold';
  observed_at: string;
}

export class ModelStatusProjection implements Projection {
  readonly name = MODEL_STATUS_PROJECTION;
  private readonly checkpoints: CheckpointStore;
  private readonly selectAll: Database.Statement<[], StatusRow>;
  private readonly applyPages: (events: readonly RecordedEvent[]) => void;

  constructor(db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS model_status (
      model TEXT PRIMARY KEY, status TEXT NOT NULL, observed_at TEXT NOT NULL) WITHOUT ROWID`);
    this.checkpoints = new CheckpointStore(db);
    this.selectAll = db.prepare('SELECT model, status, observed_at FROM model_status');
    const selectOne = db.prepare<[string], StatusRow>('SELECT model, status, observed_at FROM model_status WHERE model = ?');
    const upsert = db.prepare(
      'INSERT INTO model_status (model, status, observed_at) VALUES (?, ?, ?) ON CONFLICT (model) DO UPDATE SET status = excluded.status, observed_at = excluded.observed_at',
    );
    this.applyPages = checkpointedPages(db, this.name, (events) => {
      for (const event of events) {
        if (event.type !== 'ModelStatusChanged') continue;
        const change = event.data as ModelStatusChangedV1;
        const next = nextModelStatus(toEntry(selectOne.get(change.model)), change);
        if (next) upsert.run(change.model, next.status, next.observedAt);
      }
    });
  }

  checkpoint(): string | null {
    return this.checkpoints.get(this.name);
  }

  apply(event: RecordedEvent): void {
    this.applyPage([event]);
  }

  applyPage(events: readonly RecordedEvent[]): void {
    this.applyPages(events);
  }

  /** Latest known status per model (callers decide staleness from observedAt). */
  statuses(): Map<string, ModelStatusEntry> {
    return new Map(this.selectAll.all().map((row) => [row.model, toEntry(row)!]));
  }
}

function toEntry(row: StatusRow | undefined): ModelStatusEntry | undefined {
  return row && { status: row.status, observedAt: row.observed_at };
}
