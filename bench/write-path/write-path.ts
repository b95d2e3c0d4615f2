// Section 2: the embedded store's durable write path. N writers, each appending billing records
// (UsageMeasured + CostPriced, as BillingService does) to a new request stream in a loop for a fixed
// time; every append resolves only once its group commit is fsynced.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { openBenchStore } from './gateway-appends';
import { newRequestId, requestStreamId } from '../../src/event-store/event-ids';
import { msSince, summarize, type LatencySummary } from '../lib/samples';
import { billingEvents, pricedShapes } from '../costs/priced-requests';

export interface WriteRun {
  writers: number;
  durationS: number;
  appends: number;
  events: number;
  appendsPerSecond: number;
  eventsPerSecond: number;
  /** Per-append latency (until durable), milliseconds. */
  latencyMs: LatencySummary;
  largestCommitBatch: number;
}

const WARMUP_MS = 1000;
const shapes = pricedShapes();

async function appendLoop(store: SqliteEventStore, untilMs: number, samples: number[] | null): Promise<number> {
  let appended = 0;
  while (performance.now() < untilMs) {
    const requestId = newRequestId();
    const events = billingEvents(shapes[appended % shapes.length], { requestId, organizationId: 'org-bench-000', occurredAt: new Date().toISOString() });
    const startNs = process.hrtime.bigint();
    await store.append(requestStreamId(requestId), events);
    samples?.push(msSince(startNs));
    appended++;
  }
  return appended;
}

async function runWriters(store: SqliteEventStore, writers: number, durationMs: number, samples: number[] | null): Promise<number> {
  const untilMs = performance.now() + durationMs;
  const counts = await Promise.all(Array.from({ length: writers }, () => appendLoop(store, untilMs, samples)));
  return counts.reduce((sum, count) => sum + count, 0);
}

export async function measureWriters(rootDir: string, writers: number, durationS: number): Promise<WriteRun> {
  const dir = join(rootDir, `write-path-${writers}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const store = await openBenchStore(dir);
  try {
    await runWriters(store, writers, WARMUP_MS, null);
    const samples: number[] = [];
    const startNs = process.hrtime.bigint();
    const appends = await runWriters(store, writers, durationS * 1000, samples);
    const elapsedS = msSince(startNs) / 1000;
    const events = appends * 2;
    return {
      writers,
      durationS: elapsedS,
      appends,
      events,
      appendsPerSecond: appends / elapsedS,
      eventsPerSecond: events / elapsedS,
      latencyMs: summarize(samples),
      largestCommitBatch: store.largestCommitBatch,
    };
  } finally {
    await store.close();
  }
}
