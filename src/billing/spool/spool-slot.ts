// Replicas may share one data directory (one SQLite store in WAL mode), and a spool is written in
// place, so each process needs a spool file of its own. A process claims the first slot whose lock
// file is absent or names a process that is gone; a restarted replica so usually takes back its slot
// and drains what its previous life left. Slots of processes that did not come back are swept: each
// start drains every other unclaimed slot that still holds records (see BillingSpool.open).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SPOOL_FILE_NAME = 'billing-spool.bin';
export const MAX_SPOOL_SLOTS = 64;

/** Lock files this process holds: a lock naming our pid that is not among them is from an earlier life. */
const heldByThisProcess = new Set<string>();

export interface SpoolSlot {
  path: string;
  /** Removes the lock file; the spool file itself stays (it may hold records for the next start). */
  release(): void;
}

export function spoolPath(dataDir: string, slot: number): string {
  return join(dataDir, slot === 0 ? SPOOL_FILE_NAME : `billing-spool-${slot}.bin`);
}

/** The first free slot, locked for this process. */
export function claimSpoolSlot(dataDir: string): SpoolSlot {
  for (let slot = 0; slot < MAX_SPOOL_SLOTS; slot++) {
    const claimed = tryClaim(spoolPath(dataDir, slot));
    if (claimed) return claimed;
  }
  throw new Error(`no free billing spool slot in ${dataDir}: ${MAX_SPOOL_SLOTS} live processes hold one each`);
}

/** Other slots whose file exists and whose holder is gone, each locked for this process (to drain and release). */
export function claimAbandonedSlots(dataDir: string, own: SpoolSlot): SpoolSlot[] {
  const abandoned: SpoolSlot[] = [];
  for (let slot = 0; slot < MAX_SPOOL_SLOTS; slot++) {
    const path = spoolPath(dataDir, slot);
    if (path === own.path || !existsSync(path)) continue;
    const claimed = tryClaim(path);
    if (claimed) abandoned.push(claimed);
  }
  return abandoned;
}

function tryClaim(path: string): SpoolSlot | null {
  const lock = `${path}.lock`;
  const slot = {
    path,
    release: () => {
      heldByThisProcess.delete(lock);
      rmSync(lock, { force: true });
    },
  };
  if (heldByThisProcess.has(lock)) return null;
  if (!createLock(lock)) {
    if (holderIsAlive(lock)) return null;
    // The holder is gone: remove its lock and race for a fresh one (another starter may win it).
    rmSync(lock, { force: true });
    if (!createLock(lock)) return null;
  }
  heldByThisProcess.add(lock);
  return slot;
}

function createLock(lock: string): boolean {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** A lock naming this very process but not held by it is from an earlier life with the same pid (a container's pid 1). */
function holderIsAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

