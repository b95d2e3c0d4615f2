// The embedded store's figures, as `npm run bench` and `npm run bench:store` take them: the cold
// single-event append and the WAL pages it writes, warm appends at the fixed rate, N concurrent
// writers, and bytes on disk per billed request. Each run uses its own fresh store directory.
import type { Settings } from '../settings';
import type { FsyncResult } from '../disk/fsync';
import { measureColdAppends, type ColdAppendResult } from './cold-append';
import { measurePacedAppends, type PacedAppendResult } from './paced-appends';
import { measureWriters, type WriteRun } from './write-path';
import { measureBytesPerRequest, type BytesPerRequestResult } from './bytes-per-request';

export const WRITERS = [1, 10, 100];

export interface StoreFigures {
  coldAppend: ColdAppendResult;
  /** The same on a store whose WAL has restarted once (a gateway's steady state). */
  coldAppendRunning: ColdAppendResult;
  pacedAppends: PacedAppendResult;
  writePath: WriteRun[];
  bytesPerRequest: BytesPerRequestResult;
}

/** The store figures with the disk probe they are read against. */
export type StoreFiguresWithFsync = StoreFigures & { fsync: FsyncResult };

export async function measureStoreFigures(runDir: string, settings: Settings, log: (line: string) => void): Promise<StoreFigures> {
  log(`  cold single-event appends (${settings.coldAppends}, ${settings.coldGapMs} ms apart) ...`);
  const coldAppend = await measureColdAppends(runDir, settings.coldAppends, settings.coldGapMs);
  log(`  the same on a running store (its WAL checkpointed and restarted) ...`);
  const coldAppendRunning = await measureColdAppends(runDir, settings.coldAppends, settings.coldGapMs, 'running');
  log(`  paced appends at ${settings.fixedRate} requests/s (${settings.writeS} s) ...`);
  const pacedAppends = await measurePacedAppends(runDir, settings.fixedRate, settings.writeS);
  const writePath: WriteRun[] = [];
  for (const writers of WRITERS) {
    log(`  ${writers} concurrent writer(s) (${settings.writeS} s) ...`);
    writePath.push(await measureWriters(runDir, writers, settings.writeS));
  }
  log(`  bytes on disk: ${settings.bytesRequests} billed requests ...`);
  const bytesPerRequest = await measureBytesPerRequest(runDir, settings.bytesRequests);
  return { coldAppend, coldAppendRunning, pacedAppends, writePath, bytesPerRequest };
}
