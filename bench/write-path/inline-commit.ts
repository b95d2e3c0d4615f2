// `node -r ts-node/register/transpile-only bench/write-path/inline-commit.ts`: how close to the disk's
// fsync a commit can get with no append worker at all. The store's own batch appender commits one
// RequestAdmitted on the calling thread after an idle gap, alternated with a bare 4 KiB write + fsync
// after the same gap; both timed around the call. The difference is SQLite's own commit on an idle
// machine, the part of a cold append that no hand-off between threads can remove (docs/benchmarks.md,
// finding 46). Run it under `strace -f -T -e trace=pwrite64,fsync,fcntl` to see that commit's calls.
// INLINE_COMMIT_SAMPLES (200) sets the count; INLINE_COMMIT_WARM=1500 appends enough first to restart the
// WAL (a running store) instead of the 20 that only warm it.
import { mkdtempSync, rmSync, closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { configureWriter } from '../../src/event-store/sqlite/sqlite-schema';
import { createBatchAppender } from '../../src/event-store/sqlite/append-batch';
import { EVENTS_FILE_NAME } from '../../src/event-store/sqlite/sqlite-event-store';
import { newRequestId, requestStreamId } from '../../src/event-store/event-ids';
import type { AppendRequest } from '../../src/event-store/sqlite/append-protocol';
import { msSince, sleep, summarize } from '../lib/samples';
import { admissionEvent } from './gateway-appends';
import { writeAndSync } from '../disk/fsync';

const SAMPLES = Number(process.env.INLINE_COMMIT_SAMPLES ?? 200);
const GAP_MS = 20;

function admission(requestId: number): AppendRequest {
  const id = newRequestId();
  const event = admissionEvent(id);
  const serialized = { id: event.id, type: event.type, data: JSON.stringify(event.data), metadata: JSON.stringify(event.metadata) };
  return { kind: 'append', requestId, streamId: requestStreamId(id), expectedRevision: 'any', events: [serialized] };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'inline-commit-'));
  const db = new Database(join(dir, EVENTS_FILE_NAME));
  const fd = openSync(join(dir, 'fsync-probe.bin'), 'w');
  try {
    configureWriter(db);
    const appendBatch = createBatchAppender(db);
    for (let i = 0; i < Number(process.env.INLINE_COMMIT_WARM ?? 20); i++) appendBatch([admission(i)], new Date().toISOString());
    const commits: number[] = [];
    const fsyncs: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      await sleep(GAP_MS);
      const commitNs = process.hrtime.bigint();
      appendBatch([admission(i)], new Date().toISOString());
      commits.push(msSince(commitNs));
      await sleep(GAP_MS);
      fsyncs.push(writeAndSync(fd, i));
    }
    const line = (name: string, samples: number[]) => {
      const { p50, p90, p99 } = summarize(samples);
      return `${name.padEnd(44)} p50 ${p50.toFixed(3)}  p90 ${p90.toFixed(3)}  p99 ${p99.toFixed(3)} ms`;
    };
    process.stdout.write(`after ${GAP_MS} ms idle, ${SAMPLES} of each, alternated\n`);
    process.stdout.write(`${line('one-event commit on the calling thread', commits)}\n${line('4 KiB write + fsync', fsyncs)}\n`);
  } finally {
    closeSync(fd);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
