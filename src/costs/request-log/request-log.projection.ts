// The latest requests of each organization (GET /v1/organization/requests), bounded: after each page
// only the newest `perOrganization` entries of every organization it touched are kept.
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { CheckpointedReadModel } from '../../projections/read-model-db';
import { foldRequestLogPage, REQUEST_LOG_EVENTS, type RequestLogPatch } from './request-log.fold';

export const REQUEST_LOG_PROJECTION = 'request-log';
export const REQUEST_LOG_TABLES = ['request_log'];
/** Entries kept per organization. */
export const DEFAULT_REQUESTS_PER_ORGANIZATION = 10_000;

export function createRequestLogTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS request_log (
      seq             INTEGER PRIMARY KEY,
      organization_id TEXT    NOT NULL,
      request_id      TEXT    NOT NULL UNIQUE,
      occurred_at     TEXT    NOT NULL,
      model           TEXT    NOT NULL,
      endpoint        TEXT    NOT NULL,
      key_id          TEXT,
      usage           TEXT,
      priced          INTEGER NOT NULL,
      cost_usd_micros INTEGER,
      disputed        INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS request_log_by_organization ON request_log (organization_id, seq);
  `);
}

export class RequestLogProjection extends CheckpointedReadModel {
  private readonly upsert: Database.Statement<unknown[]>;
  private readonly trim: Database.Statement<[string, string, number]>;

  constructor(db: Database.Database, private readonly perOrganization = DEFAULT_REQUESTS_PER_ORGANIZATION) {
    super(db, REQUEST_LOG_PROJECTION);
    createRequestLogTables(db);
    this.upsert = db.prepare(`
      INSERT INTO request_log (organization_id, request_id, occurred_at, model, endpoint, key_id, usage, priced, cost_usd_micros, disputed)
      VALUES (@organizationId, @requestId, @occurredAt, @model, @endpoint, @keyId, @usage, @priced, @costUsdMicros, @disputed)
      ON CONFLICT (request_id) DO UPDATE SET
        key_id = COALESCE(excluded.key_id, key_id),
        usage = COALESCE(excluded.usage, usage),
        cost_usd_micros = CASE WHEN excluded.priced = 1 THEN excluded.cost_usd_micros ELSE cost_usd_micros END,
        priced = MAX(priced, excluded.priced),
        disputed = MAX(disputed, excluded.disputed)`);
    this.trim = db.prepare(`
      DELETE FROM request_log WHERE organization_id = ? AND seq <= (
        SELECT seq FROM request_log WHERE organization_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`);
  }

  protected applyFresh(events: readonly RecordedEvent[]): void {
    const relevant = events.filter((event) => REQUEST_LOG_EVENTS.has(event.type));
    if (relevant.length === 0) return;
    const organizations = new Set<string>();
    for (const patch of foldRequestLogPage(relevant)) {
      this.upsert.run(rowOf(patch));
      organizations.add(patch.organizationId);
    }
    for (const organizationId of organizations) this.trim.run(organizationId, organizationId, this.perOrganization);
  }
}

function rowOf(patch: RequestLogPatch): Record<string, unknown> {
  return {
    organizationId: patch.organizationId,
    requestId: patch.requestId,
    occurredAt: patch.occurredAt,
    model: patch.model,
    endpoint: patch.endpoint,
    keyId: patch.keyId,
    usage: patch.usage,
    priced: patch.priced ? 1 : 0,
    costUsdMicros: patch.costUsdMicros,
    disputed: patch.disputed ? 1 : 0,
  };
}
