// A running stream's progress, made durable at a bounded interval so a crash cannot leave it unbilled
// (docs/metering.md, "Streams cut by a crash"). At its first content, then every PROGRESS_INTERVAL_MS or
// PROGRESS_BYTES of output relayed, whichever comes first, the charge the stream would get if it ended
// there (the same events, same ids) is recorded in the progress database (stream-progress-db.ts), written
// at the end of the event-loop turn. The record is deleted once the stream's own charge is recorded. After
// a crash, the next start appends the last progress of every stream that never settled (recover-cut-streams.ts).
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import { join } from 'node:path';
import type { NewEvent } from '../event-store/event-store.port';
import { StreamProgressDb } from './stream-progress-db';

export const PROGRESS_INTERVAL_MS = 1000;
export const PROGRESS_BYTES = 64 * 1024;

export interface PendingCharge {
  streamId: string;
  events: NewEvent[];
}

export interface ProgressTracker {
  /** `bytes` more reached the client; `pending` builds the charge of everything relayed so far. */
  observe(bytes: number, pending: () => PendingCharge): void;
  /** The stream's own charge was recorded (or spooled): its progress is no longer needed. */
  settled(): Promise<void>;
}

export const NO_PROGRESS: ProgressTracker = { observe: () => undefined, settled: async () => undefined };

export class StreamProgressJournal {
  private readonly db: StreamProgressDb;

  /** `logger`: context `stream-progress`. */
  constructor(dataDir: string, private readonly now: () => number = Date.now, private readonly logger: GatewayLog = SILENT_LOG) {
    this.db = new StreamProgressDb(dataDir, process.pid, (error) => logger.warn({ err: error }, 'stream progress could not be written'));
  }

  track(requestId: string): ProgressTracker {
    return new RecordedProgress(requestId, this.db, this.now, this.logger);
  }

  /** Writes what is queued; streams still running after this keep no progress. */
  close(): void {
    this.db.close();
  }
}

/** Where versions before the progress database kept a file per stream (still recovered after an upgrade). */
export function progressRoot(dataDir: string): string {
  return join(dataDir, 'stream-progress');
}

class RecordedProgress implements ProgressTracker {
  private bytesSinceWrite = 0;
  /** The first content is recorded at once: a stream cut in its first interval is billed too. */
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private done = false;
  private written = false;

  constructor(private readonly requestId: string, private readonly db: StreamProgressDb, private readonly now: () => number, private readonly logger: GatewayLog) {}

  observe(bytes: number, pending: () => PendingCharge): void {
    this.bytesSinceWrite += bytes;
    if (this.done) return;
    const at = this.now();
    if (this.bytesSinceWrite < PROGRESS_BYTES && at - this.lastWriteAt < PROGRESS_INTERVAL_MS) return;
    this.bytesSinceWrite = 0;
    this.lastWriteAt = at;
    const charge = priced(pending, this.requestId, this.logger);
    if (charge === null) return;
    this.db.record(this.requestId, JSON.stringify(charge));
    this.written = true;
  }

  async settled(): Promise<void> {
    this.done = true;
    if (this.written) this.db.forget(this.requestId);
  }
}

function priced(pending: () => PendingCharge, requestId: string, logger: GatewayLog): PendingCharge | null {
  try {
    return pending();
  } catch (error) {
    logger.warn({ err: error, requestId }, 'stream progress could not be priced');
    return null;
  }
}
