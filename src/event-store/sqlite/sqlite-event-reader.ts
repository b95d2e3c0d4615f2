// Reads on the main thread through a read-only connection: in WAL mode each statement sees the latest
// committed snapshot, including commits of other processes sharing the file.
import Database from 'better-sqlite3';
import type { RecordedEvent } from '../event-store.port';
import { BUSY_TIMEOUT_MS, parsePosition, fromStoredRow, type EventRow } from './sqlite-schema';
import { rowEncoderFor, type RowEncoder, type StoredId } from './row-codec';

const COLUMNS = 'position, event_id, stream_id, revision, type, data, metadata, recorded_at';

export class SqliteEventReader {
  private readonly db: Database.Database;
  private readonly encoder: RowEncoder;
  private readonly streamQuery: Database.Statement<[StoredId, number, number], EventRow>;
  private readonly allQuery: Database.Statement<[number, number], EventRow>;
  private readonly headQuery: Database.Statement<[], { head: number | null }>;

  constructor(databasePath: string) {
    this.db = new Database(databasePath, { readonly: true, fileMustExist: true });
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.encoder = rowEncoderFor(this.db);
    this.streamQuery = this.db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    );
    this.allQuery = this.db.prepare(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`);
    this.headQuery = this.db.prepare('SELECT MAX(position) AS head FROM events');
  }

  readStream(streamId: string, fromRevision: number, maxCount: number): RecordedEvent[] {
    return this.streamQuery.all(this.encoder.stream(streamId), fromRevision, maxCount).map(fromStoredRow);
  }

  readAll(after: string | null, maxCount: number): RecordedEvent[] {
    return this.allQuery.all(after === null ? 0 : parsePosition(after), maxCount).map(fromStoredRow);
  }

  headPosition(): string | null {
    const { head } = this.headQuery.get()!;
    return head === null ? null : String(head);
  }

  storeId(): string {
    return this.db.prepare<[], { id: string }>('SELECT id FROM store_identity').get()!.id;
  }

  close(): void {
    this.db.close();
  }
}
