// Bodies kept by the previous version: table `kept_bodies` (WITHOUT ROWID, keyed by the stream's hash then
// the request) in the same database. An upgrade under traffic loses none of them: a body without a row in
// `kept_answers` is looked up here, and the sweeper deletes these rows past the retention like the others.
// Nothing new is written here, and the table is never dropped: a replica still on the previous version,
// sharing the data directory, may be writing to it beside this one.
import type Database from 'better-sqlite3';
import { decodeChunks } from './chunk-codec';

export const LEGACY_BODIES_TABLE = 'kept_bodies';

interface LegacyStatements {
  select: Database.Statement<[string, string], { chunks: Buffer }>;
  deleteOlder: Database.Statement<[number]>;
}

export class LegacyBodyTable {
  private statements: LegacyStatements | null = null;
  private readonly tableExists: Database.Statement<[string], { found: number }>;

  constructor(private readonly db: Database.Database) {
    this.tableExists = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?");
  }

  /** The chunks kept under the stream's hash and the request, or null (no such row, or no such table). */
  read(streamHash: string, requestId: string): Buffer[] | null {
    const row = this.prepared()?.select.get(streamHash, requestId);
    return row ? decodeChunks(row.chunks) : null;
  }

  /** Deletes rows kept at or before `keptAtOrBefore` (epoch ms); returns how many. */
  sweep(keptAtOrBefore: number): number {
    return this.prepared()?.deleteOlder.run(keptAtOrBefore).changes ?? 0;
  }

  /**
   * The statements once the table exists. Looked up again on every use until then (a catalogue read of a
   * few µs, only on a miss or a sweep): a replica on the previous version may create the table after this
   * one opened the database.
   */
  private prepared(): LegacyStatements | null {
    if (this.statements !== null) return this.statements;
    if (this.tableExists.get(LEGACY_BODIES_TABLE) === undefined) return null;
    this.statements = {
      select: this.db.prepare(`SELECT chunks FROM ${LEGACY_BODIES_TABLE} WHERE stream_hash = ? AND request_id = ?`),
      deleteOlder: this.db.prepare(`DELETE FROM ${LEGACY_BODIES_TABLE} WHERE kept_at <= ?`),
    };
    return this.statements;
  }
}
