// Durable record of the events a projection could not apply, in read-models.sqlite beside the
// checkpoints. One row per (projection, event id), so parking the same event again (a crash between
// the row and the checkpoint, or two replicas sharing the read model) is harmless.
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../../event-store/event-store.port';

const PARKED_SCHEMA = `
  CREATE TABLE IF NOT EXISTS parked_events (
    projection      TEXT NOT NULL,
    position        TEXT NOT NULL,
    event_id        TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    stream_id       TEXT NOT NULL,
    reason          TEXT NOT NULL,
    parked_at       TEXT NOT NULL,
    acknowledged_at TEXT,
    PRIMARY KEY (projection, event_id)
  ) WITHOUT ROWID;
`;

export interface ParkedEvent {
  projection: string;
  position: string;
  eventId: string;
  eventType: string;
  streamId: string;
  reason: string;
  parkedAt: string;
  acknowledgedAt: string | null;
}

const COLUMNS = `projection, position, event_id AS eventId, event_type AS eventType, stream_id AS streamId,
  reason, parked_at AS parkedAt, acknowledged_at AS acknowledgedAt`;

/** True when the read model file already has the table (a read-only CLI must not create it). */
export function hasParkedEventsTable(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'parked_events'").get() !== undefined;
}

export class ParkedEvents {
  private readonly insert: Database.Statement<[string, string, string, string, string, string, string]>;
  private readonly unacknowledgedCounts: Database.Statement<[], { projection: string; count: number }>;
  private readonly all: Database.Statement<[], ParkedEvent>;
  private readonly acknowledgeOne: Database.Statement<[string, string]>;
  private readonly acknowledgeAll: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    db.exec(PARKED_SCHEMA);
    this.insert = db.prepare(`INSERT OR IGNORE INTO parked_events
      (projection, position, event_id, event_type, stream_id, reason, parked_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    this.unacknowledgedCounts = db.prepare(
      'SELECT projection, COUNT(*) AS count FROM parked_events WHERE acknowledged_at IS NULL GROUP BY projection',
    );
    this.all = db.prepare(`SELECT ${COLUMNS} FROM parked_events ORDER BY projection, parked_at, event_id`);
    this.acknowledgeOne = db.prepare('UPDATE parked_events SET acknowledged_at = ? WHERE event_id = ? AND acknowledged_at IS NULL');
    this.acknowledgeAll = db.prepare('UPDATE parked_events SET acknowledged_at = ? WHERE acknowledged_at IS NULL');
  }

  /** Records the event as parked by `projection`; false when it already was (log and count only once). */
  park(projection: string, event: RecordedEvent, reason: string, now = new Date()): boolean {
    const type = typeof event.type === 'string' ? event.type : String(event.type);
    return this.insert.run(projection, event.position, event.id, type, event.streamId, reason, now.toISOString()).changes === 1;
  }

  /** Parked events nobody has acknowledged yet, per projection (readiness; a tiny table, one query). */
  unacknowledged(): Record<string, number> {
    return Object.fromEntries(this.unacknowledgedCounts.all().map((row) => [row.projection, row.count]));
  }

  list(): ParkedEvent[] {
    return this.all.all();
  }

  /** Marks one event (by id, every projection that parked it) or all of them as seen by an operator. */
  acknowledge(eventId: string | 'all', now = new Date()): number {
    const at = now.toISOString();
    return (eventId === 'all' ? this.acknowledgeAll.run(at) : this.acknowledgeOne.run(at, eventId)).changes;
  }
}

/** Read-only access for the ledger check: an older read model without the table has nothing parked. */
export function listParkedEvents(db: Database.Database): ParkedEvent[] {
  if (!hasParkedEventsTable(db)) return [];
  return db.prepare(`SELECT ${COLUMNS} FROM parked_events ORDER BY projection, parked_at, event_id`).all() as ParkedEvent[];
}
