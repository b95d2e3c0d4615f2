// Reads of the request log: an organization's entries newest first, a page at a time.
import type Database from 'better-sqlite3';
import { createRequestLogTables } from './request-log.projection';

export interface RequestLogEntry {
  requestId: string;
  occurredAt: string;
  model: string;
  endpoint: string;
  keyId: string | null;
  usage: string | null;
  priced: boolean;
  costUsdMicros: bigint | null;
  disputed: boolean;
}

export interface RequestLogPage {
  entries: RequestLogEntry[];
  hasMore: boolean;
}

interface Row extends Omit<RequestLogEntry, 'priced' | 'disputed'> {
  priced: bigint;
  disputed: bigint;
}

const COLUMNS = `request_id AS requestId, occurred_at AS occurredAt, model, endpoint, key_id AS keyId, usage,
                 priced, cost_usd_micros AS costUsdMicros, disputed`;

export class RequestLogReadModel {
  private readonly newest: Database.Statement<[string, number], Row>;
  private readonly olderThan: Database.Statement<[string, bigint, number], Row>;
  private readonly seqOf: Database.Statement<[string, string], { seq: bigint }>;

  constructor(db: Database.Database) {
    createRequestLogTables(db);
    this.newest = db.prepare(`SELECT ${COLUMNS} FROM request_log WHERE organization_id = ? ORDER BY seq DESC LIMIT ?`).safeIntegers(true) as Database.Statement<[string, number], Row>;
    this.olderThan = db
      .prepare(`SELECT ${COLUMNS} FROM request_log WHERE organization_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`)
      .safeIntegers(true) as Database.Statement<[string, bigint, number], Row>;
    this.seqOf = db.prepare('SELECT seq FROM request_log WHERE organization_id = ? AND request_id = ?').safeIntegers(true) as Database.Statement<[string, string], { seq: bigint }>;
  }

  /**
   * Up to `limit` entries, newest first, after (older than) the entry `after` names.
   * null when `after` names no entry of the organization (unknown, or already dropped by the bound).
   */
  page(organizationId: string, limit: number, after: string | null): RequestLogPage | null {
    let rows: Row[];
    if (after === null) rows = this.newest.all(organizationId, limit + 1);
    else {
      const cursor = this.seqOf.get(organizationId, after);
      if (!cursor) return null;
      rows = this.olderThan.all(organizationId, cursor.seq, limit + 1);
    }
    const hasMore = rows.length > limit;
    return { entries: rows.slice(0, limit).map(toEntry), hasMore };
  }
}

function toEntry(row: Row): RequestLogEntry {
  return { ...row, priced: row.priced === 1n, disputed: row.disputed === 1n };
}
