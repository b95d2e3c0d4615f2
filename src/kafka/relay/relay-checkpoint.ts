// Where the relay remembers the last store position the broker acknowledged. A file (not the event
// store) so that saving a checkpoint never appends an event the relay would then have to read.
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ParkedRelayEvent } from './relay-batch';

export const CHECKPOINT_FILE_NAME = 'kafka-relay-checkpoint.json';

/** KAFKA_RELAY_CHECKPOINT_FILE, else the file in GATEWAY_DATA_DIR (the relay and ledger:check agree). */
export function relayCheckpointPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.KAFKA_RELAY_CHECKPOINT_FILE || join(env.GATEWAY_DATA_DIR ?? './data', CHECKPOINT_FILE_NAME);
}

export interface RelayCheckpoint {
  /** Global store position of the last acknowledged event; null before the first. */
  position: string | null;
  /** Id of the store's first event: tells a checkpoint of this store from one of a wiped store. */
  firstEventId: string | null;
  savedAt: string;
  /** Events the relay could not turn into messages, saved with the checkpoint that moved past them. */
  parked?: ParkedRelayEvent[];
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
