// Bodies kept by earlier versions: one JSON file of base64 chunks per answer under
// `<data dir>/idempotency-responses/`. An upgrade under traffic loses none of them: a body without a row
// in the database is read from its file, and the sweeper still deletes files past the retention. Nothing
// new is written here.
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const LEGACY_BODIES_DIR = 'idempotency-responses';

export class LegacyBodyFiles {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, LEGACY_BODIES_DIR);
  }

  /** The chunks of the file named by the stream's hash and the request, or null when there is none. */
  async read(streamHash: string, requestId: string): Promise<Buffer[] | null> {
    try {
      const parsed = JSON.parse(await readFile(this.fileOf(streamHash, requestId), 'utf8')) as string[];
      return parsed.map((chunk) => Buffer.from(chunk, 'base64'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Deletes files written longer ago than the retention; returns how many (none once the directory is gone). */
  async sweep(retentionMs: number, now: Date): Promise<number> {
    let deleted = 0;
    for (const name of await this.names()) {
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

  private async names(): Promise<string[]> {
    try {
      return await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  private fileOf(streamHash: string, requestId: string): string {
    return join(this.dir, `${streamHash}-${requestId}.json`);
  }
}
