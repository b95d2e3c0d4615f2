// The bytes of kept answers, outside the event store: SQLite and PostgreSQL stores never delete an
// event, and a recorded body must be forgotten after the retention. One file per answer under
// `<data dir>/idempotency-responses/`, named by the key's stream and the request (never the raw key);
// the IdempotentResponseRecorded event holds the status, size and chunk count. Replicas sharing one
// data directory (SQLite) share the files; replicas with a directory each (PostgreSQL) replay only
// what they recorded themselves, elsewhere the replay is 409 `idempotent_response_not_kept`.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export class ResponseBodies {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'idempotency-responses');
    // Owner only: a kept POST /v1/keys answer holds the issued key's plain secret until it is swept.
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Written before the event that names it (no fsync: a body lost to a crash replays as not kept). */
  async keep(streamId: string, requestId: string, chunks: readonly Buffer[]): Promise<void> {
    const file = this.fileOf(streamId, requestId);
    const text = JSON.stringify(chunks.map((chunk) => chunk.toString('base64')));
    await writeFile(`${file}.tmp`, text, { mode: 0o600 });
    await rename(`${file}.tmp`, file);
  }

  /** The chunks as they were sent, or null when the body is gone (swept, or kept by another replica). */
  async read(streamId: string, requestId: string): Promise<Buffer[] | null> {
    try {
      const parsed = JSON.parse(await readFile(this.fileOf(streamId, requestId), 'utf8')) as string[];
      return parsed.map((chunk) => Buffer.from(chunk, 'base64'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Deletes bodies written longer ago than the retention; returns how many. */
  async sweep(retentionMs: number, now: Date = new Date()): Promise<number> {
    let deleted = 0;
    for (const name of await readdir(this.dir)) {
      const file = join(this.dir, name);
      try {
        if ((await stat(file)).mtimeMs + retentionMs > now.getTime()) continue;
        await unlink(file);
        deleted++;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return deleted;
  }

  private fileOf(streamId: string, requestId: string): string {
    return join(this.dir, `${createHash('sha256').update(streamId).digest('hex')}-${requestId}.json`);
  }
}
