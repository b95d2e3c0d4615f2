// The data disk's own durability cost: write one 4 KiB page and fsync it, as a commit does, in a
// bounded loop on a file in the data directory. The write-latency targets are stated on top of it.
// fsync, not fdatasync: SQLite as better-sqlite3 builds it (without HAVE_FDATASYNC) calls fsync.
import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { msSince, sleep, summarize, type LatencySummary } from '../lib/samples';

const PAGE = Buffer.alloc(4096, 0x5a);
/** fsyncs after an idle gap, beside the back-to-back ones. */
export const IDLE_FSYNCS = 200;
/** Bounds the loop in time as well as in count, whatever the disk does. */
const TIME_LIMIT_MS = 60_000;

export interface FsyncResult {
  iterations: number;
  /** Back to back: the disk at its fastest. */
  latencyMs: LatencySummary;
  /** Each after the cold appends' idle gap: what one fsync costs a store that was idle (the virtual
   * disk answers an fsync after an idle spell about three times slower here). */
  idle: { iterations: number; gapMs: number; latencyMs: LatencySummary };
}

/** Writes one 4 KiB page (of 256, by `page`) and fsyncs it; returns the time taken, ms. */
export function writeAndSync(fd: number, page: number): number {
  const writeNs = process.hrtime.bigint();
  writeSync(fd, PAGE, 0, PAGE.length, (page % 256) * PAGE.length);
  fsyncSync(fd);
  return msSince(writeNs);
}

/** `idleIterations` more fsyncs, each after `gapMs` of idle, as the cold appends are taken. */
export async function measureFsync(dataDir: string, iterations: number, idleIterations: number, gapMs: number): Promise<FsyncResult> {
  const path = join(dataDir, 'fsync-probe.bin');
  const fd = openSync(path, 'w');
  const samples: number[] = [];
  const idle: number[] = [];
  const startNs = process.hrtime.bigint();
  try {
    for (let i = 0; i < iterations && msSince(startNs) < TIME_LIMIT_MS; i++) samples.push(writeAndSync(fd, i));
    for (let i = 0; i < idleIterations && msSince(startNs) < 2 * TIME_LIMIT_MS; i++) {
      await sleep(gapMs);
      idle.push(writeAndSync(fd, i));
    }
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
  return { iterations: samples.length, latencyMs: summarize(samples), idle: { iterations: idle.length, gapMs, latencyMs: summarize(idle) } };
}
