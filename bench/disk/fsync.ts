// The data disk's own durability cost: write one 4 KiB page and fsync it, as a commit does, in a
// bounded loop on a file in the data directory. The write-latency targets are stated on top of it.
// fsync, not fdatasync: SQLite as better-sqlite3 builds it (without HAVE_FDATASYNC) calls fsync.
import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { msSince, summarize, type LatencySummary } from '../lib/samples';

const PAGE = Buffer.alloc(4096, 0x5a);
/** Bounds the loop in time as well as in count, whatever the disk does. */
const TIME_LIMIT_MS = 60_000;

export interface FsyncResult {
  iterations: number;
  latencyMs: LatencySummary;
}

export function measureFsync(dataDir: string, iterations: number): FsyncResult {
  const path = join(dataDir, 'fsync-probe.bin');
  const fd = openSync(path, 'w');
  const samples: number[] = [];
  const startNs = process.hrtime.bigint();
  try {
    for (let i = 0; i < iterations && msSince(startNs) < TIME_LIMIT_MS; i++) {
      const writeNs = process.hrtime.bigint();
      writeSync(fd, PAGE, 0, PAGE.length, (i % 256) * PAGE.length);
      fsyncSync(fd);
      samples.push(msSince(writeNs));
    }
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
  return { iterations: samples.length, latencyMs: summarize(samples) };
}
