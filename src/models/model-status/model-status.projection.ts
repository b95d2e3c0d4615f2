// Folds ModelStatusChanged into model -> {status, observedAt}, persisted with its checkpoint so a
// restart resumes instead of rescanning the whole store.
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { ModelStatusChangedV1 } from './model-status.events';
import { CheckpointedReadModel } from '../../projections/read-model-db';
import { checkModelStatusChanged, nextModelStatus, type ModelStatusEntry } from './model-status.fold';

export const MODEL_STATUS_PROJECTION = 'model-status';
export const MODEL_STATUS_TABLES = ['model_status'];

interface StatusRow {
  model: string;
  status: 'warm' | 'cold';
  observed_at: string;
}

export class ModelStatusProjection extends CheckpointedReadModel {
  private readonly selectAll: Database.Statement<[], StatusRow>;
  private readonly selectOne: Database.Statement<[string], StatusRow>;
  private readonly upsert: Database.Statement<[string, string, string]>;

  constructor(db: Database.Database) {
    super(db, MODEL_STATUS_PROJECTION);
    db.exec(`CREATE TABLE IF NOT EXISTS model_status (
      model TEXT PRIMARY KEY, status TEXT NOT NULL, observed_at TEXT NOT NULL) WITHOUT ROWID`);
    this.selectAll = db.prepare('SELECT model, status, observed_at FROM model_status');
    this.selectOne = db.prepare('SELECT model, status, observed_at FROM model_status WHERE model = ?');
    this.upsert = db.prepare(
      'INSERT INTO model_status (model, status, observed_at) VALUES (?, ?, ?) ON CONFLICT (model) DO UPDATE SET status = excluded.status, observed_at = excluded.observed_at',
    );
  }

  protected applyFresh(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (event.type !== 'ModelStatusChanged') continue;
      const change = event.data as ModelStatusChangedV1;
      checkModelStatusChanged(change);
      const next = nextModelStatus(toEntry(this.selectOne.get(change.model)), change);
      if (next) this.upsert.run(change.model, next.status, next.observedAt);
    }
  }

  /** Latest known status per model (callers decide staleness from observedAt). */
  statuses(): Map<string, ModelStatusEntry> {
    return new Map(this.selectAll.all().map((row) => [row.model, toEntry(row)!]));
  }
}

function toEntry(row: StatusRow | undefined): ModelStatusEntry | undefined {
  return row && { status: row.status, observedAt: row.observed_at };
}
