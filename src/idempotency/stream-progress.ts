// A running stream's progress, made durable at a bounded interval so a crash cannot leave it unbilled
// (docs/metering.md, "Streams cut by a crash"). At its first content, then every PROGRESS_INTERVAL_MS or
// PROGRESS_BYTES of output relayed, whichever comes first, the charge the stream would get if it ended there (the same events,
// same ids) is written to `<data dir>/stream-progress/<pid>/<requestId>.json`: write and rename, no
// fsync (a killed process's writes are in the page cache; a power loss may lose the last few seconds).
// The file is deleted once the stream's own charge is recorded. After a crash, the next start appends
// the last progress of every stream that never settled (recover-cut-streams.ts).
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import { mkdirSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NewEvent } from '../event-store/event-store.port';

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
  readonly dir: string;

  /** `logger`: context `stream-progress`. */
  constructor(dataDir: string, private readonly now: () => number = Date.now, private readonly logger: GatewayLog = SILENT_LOG) {
    this.dir = ownDir(dataDir);
    mkdirSync(this.dir, { recursive: true });
  }

  track(requestId: string): ProgressTracker {
    return new FileProgress(join(this.dir, `${requestId}.json`), this.now, this.logger);
  }
}

export function progressRoot(dataDir: string): string {
  return join(dataDir, 'stream-progress');
}

function ownDir(dataDir: string): string {
  return join(progressRoot(dataDir), String(process.pid));
}

class FileProgress implements ProgressTracker {
  private bytesSinceWrite = 0;
  /** The first content is recorded at once: a stream cut in its first interval is billed too. */
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private writing: Promise<void> | null = null;
  private queued: (() => PendingCharge) | null = null;
  private done = false;
  private written = false;

  constructor(private readonly file: string, private readonly now: () => number, private readonly logger: GatewayLog) {}

  observe(bytes: number, pending: () => PendingCharge): void {
    this.bytesSinceWrite += bytes;
    if (this.done) return;
    const at = this.now();
    if (this.bytesSinceWrite < PROGRESS_BYTES && at - this.lastWriteAt < PROGRESS_INTERVAL_MS) return;
    this.bytesSinceWrite = 0;
    this.lastWriteAt = at;
    // One write at a time; a record due meanwhile is written after it, with the newest progress.
    if (this.writing !== null) {
      this.queued = pending;
      return;
    }
    this.writing = this.writeLoop(pending);
  }

  async settled(): Promise<void> {
    this.done = true;
    await this.writing;
    if (!this.written) return;
    await unlink(this.file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') this.logger.warn({ err: error, file: this.file }, 'stream progress could not be removed');
    });
  }

  private async writeLoop(first: () => PendingCharge): Promise<void> {
    for (let next: (() => PendingCharge) | null = first; next !== null && !this.done; ) {
      this.queued = null;
      const charge = priced(next, this.file, this.logger);
      if (charge !== null) await this.write(charge);
      next = this.queued;
    }
    this.writing = null;
  }

  private async write(charge: PendingCharge): Promise<void> {
    try {
      await writeFile(`${this.file}.tmp`, JSON.stringify(charge));
      if (this.done) return await unlink(`${this.file}.tmp`);
      await rename(`${this.file}.tmp`, this.file);
      this.written = true;
    } catch (error) {
      this.logger.warn({ err: error, file: this.file }, 'stream progress could not be written');
    }
  }
}

function priced(pending: () => PendingCharge, file: string, logger: GatewayLog): PendingCharge | null {
  try {
    return pending();
  } catch (error) {
    logger.warn({ err: error, file }, 'stream progress could not be priced');
    return null;
  }
}
