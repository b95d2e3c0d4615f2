// The cold single-event append: what the rate limiter's admission costs a request that arrives on an
// idle gateway (the main thread and the store's append worker both asleep). One RequestAdmitted to a
// new request stream, then an idle gap, N times; each timed from the caller's side, before append()
// to its resolution. Beside it, the WAL pages each single-event commit wrote, read from the WAL-index.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { EVENTS_FILE_NAME } from '../../src/event-store/sqlite/sqlite-event-store';
import { sleep, summarize, type LatencySummary } from '../lib/samples';
import type { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { appendAdmission, openFreshStore } from './gateway-appends';

/** Appends before the measured ones: the worker started, the statements prepared, the schema pages cached. */
const WARM_APPENDS = 20;
/**
 * Byte offset of mxFrame (u32, native byte order) in the first copy of the WAL-index header at the
 * start of `-shm`: the last valid frame of the WAL (https://www.sqlite.org/walformat.html).
 */
const MX_FRAME_OFFSET = 16;
/** szPage (u16, native byte order) in the same header: the database page size, 1 meaning 65536. */
const PAGE_SIZE_OFFSET = 14;

export interface PagesPerEvent {
  /** Commits counted: those during which no checkpoint reset the WAL. */
  commits: number;
  mean: number;
  max: number;
  min: number;
  /** Bytes per page, so variants with different page sizes compare by WAL bytes (pages x pageSize). */
  pageSize: number;
}

export interface ColdAppendResult {
  /** `fresh`: a new store, whose WAL grows with every commit (each fsync also commits the file's new size);
   * `running`: a store whose WAL has been checkpointed and restarted, so commits overwrite it, as they do
   * in a gateway past its first thousand WAL pages. */
  store: 'fresh' | 'running';
  /** Appends made, back to back, before the measured ones (to warm the store, and for `running` to restart its WAL). */
  fillAppends: number;
  appends: number;
  gapMs: number;
  /** Caller's-side latency of one single-event append after the idle gap, ms. */
  latencyMs: LatencySummary;
  /** WAL frames written per single-event commit; null when the store keeps no `-shm` WAL-index. */
  pagesPerEvent: PagesPerEvent | null;
}

/** Reads mxFrame from the live `-shm` file (SQLite maps it shared, so a read sees the committed value). */
class WalIndexReader {
  private readonly buffer = Buffer.alloc(4);

  private constructor(private readonly fd: number) {}

  static open(storeDir: string): WalIndexReader | null {
    const path = join(storeDir, `${EVENTS_FILE_NAME}-shm`);
    return existsSync(path) ? new WalIndexReader(openSync(path, 'r')) : null;
  }

  mxFrame(): number {
    readSync(this.fd, this.buffer, 0, 4, MX_FRAME_OFFSET);
    return endianness() === 'LE' ? this.buffer.readUInt32LE(0) : this.buffer.readUInt32BE(0);
  }

  pageSize(): number {
    readSync(this.fd, this.buffer, 0, 2, PAGE_SIZE_OFFSET);
    const size = endianness() === 'LE' ? this.buffer.readUInt16LE(0) : this.buffer.readUInt16BE(0);
    return size === 1 ? 65_536 : size;
  }

  close(): void {
    closeSync(this.fd);
  }
}

function pagesSummary(deltas: number[], walIndex: WalIndexReader | null): PagesPerEvent | null {
  if (deltas.length === 0 || walIndex === null) return null;
  const mean = deltas.reduce((sum, pages) => sum + pages, 0) / deltas.length;
  return { commits: deltas.length, mean, max: Math.max(...deltas), min: Math.min(...deltas), pageSize: walIndex.pageSize() };
}

/** Appends that fill a new store's WAL past its first checkpoint, at most (about 300 restart it). */
const MAX_FILL_APPENDS = 20_000;
/** Appends in flight while filling: a commit each, fast enough to reach the checkpoint in a second or two. */
const FILL_CONCURRENCY = 50;

/** Appends admissions until a checkpoint restarts the WAL (mxFrame moves back); returns how many it took. */
async function fillUntilWalRestarts(store: SqliteEventStore, walIndex: WalIndexReader): Promise<number> {
  let filled = 0;
  let highest = walIndex.mxFrame();
  while (filled < MAX_FILL_APPENDS) {
    await Promise.all(Array.from({ length: FILL_CONCURRENCY }, () => appendAdmission(store)));
    filled += FILL_CONCURRENCY;
    const frame = walIndex.mxFrame();
    if (frame < highest) return filled;
    highest = frame;
  }
  throw new Error(`the WAL did not restart after ${filled} appends`);
}

export async function measureColdAppends(rootDir: string, appends: number, gapMs: number, kind: ColdAppendResult['store'] = 'fresh'): Promise<ColdAppendResult> {
  const { store, dir } = await openFreshStore(rootDir, `cold-append-${kind}`);
  let walIndex: WalIndexReader | null = null;
  try {
    for (let i = 0; i < WARM_APPENDS; i++) await appendAdmission(store);
    walIndex = WalIndexReader.open(dir);
    if (kind === 'running' && walIndex === null) throw new Error('a running store needs the -shm WAL-index to see its WAL restart');
    const fillAppends = WARM_APPENDS + (kind === 'running' ? await fillUntilWalRestarts(store, walIndex!) : 0);
    const latencies: number[] = [];
    const pages: number[] = [];
    for (let i = 0; i < appends; i++) {
      await sleep(gapMs);
      const before = walIndex?.mxFrame() ?? 0;
      latencies.push(await appendAdmission(store));
      const after = walIndex?.mxFrame() ?? 0;
      // A checkpoint that reset the WAL moves mxFrame back: that commit's page count is unknown.
      if (walIndex && after > before) pages.push(after - before);
    }
    return { store: kind, fillAppends, appends, gapMs, latencyMs: summarize(latencies), pagesPerEvent: pagesSummary(pages, walIndex) };
  } finally {
    walIndex?.close();
    await store.close();
  }
}
