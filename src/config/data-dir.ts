// The data directory (GATEWAY_DATA_DIR) holds the event store, read models, billing spool and relay
// checkpoint. It is checked once before anything opens a file in it, so a directory the process cannot
// write (an image whose /data belongs to root, a volume mounted read-only) stops the start-up with one
// line that says what to fix, instead of a SQLite or mkdir stack trace from whichever part came first.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

export class DataDirError extends Error {}

function processUser(): string {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  return uid === undefined ? 'this process' : `uid ${uid}, gid ${gid}`;
}

/** Creates the directory when missing and proves it writable; throws DataDirError otherwise. */
export function prepareDataDir(dataDir: string): string {
  const path = resolve(dataDir);
  try {
    mkdirSync(path, { recursive: true });
    accessSync(path, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new DataDirError(
      `GATEWAY_DATA_DIR ${path} is not writable by the gateway (${processUser()}): ${code}. ` +
        'Create it and give it to the user the gateway runs as, or mount a writable volume there (deploy/README.md, "Data directory").',
    );
  }
  return path;
}
