// Where the relay remembers the last store position the broker acknowledged. A file (not the event
// store) so that saving a checkpoint never appends an event the relay would then have to read.
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';

export interface RelayCheckpoint {
  /** Global store position of the last acknowledged event; null before the first. */
  position: string | null;
  /** Id of the store's first event: tells a checkpoint of this store from one of a wiped store. */
  firstEventId: string | null;
  savedAt: string;
}

export interface RelayCheckpointStore {
  load(): Promise<RelayCheckpoint | null>;
  save(checkpoint: RelayCheckpoint): Promise<void>;
}

export class FileRelayCheckpointStore implements RelayCheckpointStore {
  constructor(private readonly path: string) {}

  async load(): Promise<RelayCheckpoint | null> {
    try {
      return JSON.parse(await fs.readFile(this.path, 'utf8')) as RelayCheckpoint;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Write, fsync, rename: a crash leaves the old or the new checkpoint, never a torn one. */
  async save(checkpoint: RelayCheckpoint): Promise<void> {
    await fs.mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    const file = await fs.open(temporary, 'w');
    try {
      await file.writeFile(JSON.stringify(checkpoint));
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.rename(temporary, this.path);
  }
}
