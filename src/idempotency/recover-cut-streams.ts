// At start-up: streams that a crash cut are charged for their last recorded progress (stream-progress.ts),
// once, with the ids their own charge would have had: a request already charged (its CostPriced is in
// the store) is left alone, and a second recovery of the same record appends nothing new. Only the
// records of processes that are gone are read (replicas on one machine share the data directory);
// this process's own pid is a previous life's (a container restarts its gateway as the same pid).
// Files that versions before the progress database wrote (a directory per process) are recovered too.
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import { readdir, readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventStore } from '../event-store/event-store.port';
import { progressRoot, type PendingCharge } from './stream-progress';
import { StreamProgressDb } from './stream-progress-db';

export interface RecoveredStreams {
  /** Streams charged now for their last progress. */
  charged: number;
  /** Streams that had settled before the crash (progress left behind). */
  alreadyCharged: number;
}

/** `logger`: context `stream-progress`. */
export async function recoverCutStreams(store: EventStore, dataDir: string, logger: GatewayLog = SILENT_LOG): Promise<RecoveredStreams> {
  const result: RecoveredStreams = { charged: 0, alreadyCharged: 0 };
  const db = new StreamProgressDb(dataDir);
  try {
    for (const row of db.rowsOfGoneOwners(isGone)) {
      await recoverOne(store, JSON.parse(row.charge) as PendingCharge, result);
      db.deleteRow(row.owner, row.requestId);
    }
  } finally {
    db.close();
  }
  await recoverLegacyFiles(store, dataDir, result);
  if (result.charged > 0) logger.warn(result, 'streams cut by a crash were charged for their last recorded progress');
  return result;
}

async function recoverLegacyFiles(store: EventStore, dataDir: string, result: RecoveredStreams): Promise<void> {
  const root = progressRoot(dataDir);
  for (const owner of await entries(root)) {
    if (!isGone(Number(owner))) continue;
    const dir = join(root, owner);
    for (const name of await entries(dir)) {
      const file = join(dir, name);
      if (name.endsWith('.json')) await recoverOne(store, JSON.parse(await readFile(file, 'utf8')) as PendingCharge, result);
      await unlink(file).catch(() => undefined);
    }
    await rm(dir, { recursive: true, force: true });
  }
}

async function recoverOne(store: EventStore, pending: PendingCharge, result: RecoveredStreams): Promise<void> {
  const settled = (await store.readStream(pending.streamId)).some((event) => event.type === 'CostPriced');
  if (settled) {
    result.alreadyCharged++;
    return;
  }
  const events = pending.events.map((event) => ({ ...event, metadata: { ...event.metadata, recoveredFrom: 'stream_progress' } }));
  await store.append(pending.streamId, events);
  result.charged++;
}

/** A process id that is this one (a previous life) or that no longer runs. */
function isGone(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
