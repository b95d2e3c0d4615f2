// The store's tables, shared by `npm run bench` and `npm run bench:store`: the disk probe, the cold
// single-event append and its WAL pages, warm appends at the fixed rate, N writers, bytes per request.
import type { LatencySummary } from '../lib/samples';
import type { ColdAppendResult } from '../write-path/cold-append';
import type { StoreFiguresWithFsync } from '../write-path/store-figures';
import type { TargetCheck } from './results';
import { table, type Cell } from './table';

const latencyCells = (summary: LatencySummary): Cell[] => [summary.p50, summary.p90, summary.p99, summary.max];

function coldRow(name: string, cold: ColdAppendResult, fsync: StoreFiguresWithFsync['fsync']): Cell[] {
  return [name, cold.latencyMs.count, ...latencyCells(cold.latencyMs), cold.latencyMs.p50 - fsync.latencyMs.p50, cold.latencyMs.p50 - fsync.idle.latencyMs.p50];
}

function appendTables({ fsync, coldAppend, coldAppendRunning, pacedAppends }: StoreFiguresWithFsync): string[] {
  const pages = coldAppend.pagesPerEvent;
  const paced = pacedAppends;
  return [
    table(`Data disk: write 4 KiB + fsync, ${fsync.iterations} times (ms)`, ['', 'p50', 'p90', 'p99', 'max'], [
      ['fsync, back to back', ...latencyCells(fsync.latencyMs)],
      [`fsync after ${fsync.idle.gapMs} ms idle (${fsync.idle.iterations} times)`, ...latencyCells(fsync.idle.latencyMs)],
    ]),
    table(`Cold single-event append (RequestAdmitted to a new stream, ${coldAppend.gapMs} ms idle before each; caller side, ms)`,
      ['', 'appends', 'p50', 'p90', 'p99', 'max', 'p50 - fsync p50', 'p50 - idle fsync p50'],
      [coldRow('new store (its WAL growing)', coldAppend, fsync), coldRow(`running store (WAL restarted after ${coldAppendRunning.fillAppends} appends)`, coldAppendRunning, fsync)]),
    table('WAL pages written per single-event commit (mxFrame of the WAL-index, before and after)', ['', 'commits', 'mean', 'min', 'max', 'page size', 'WAL KiB per event (mean)'],
      [pages ? ['pages per event', String(pages.commits), pages.mean, String(pages.min), String(pages.max), String(pages.pageSize), (pages.mean * pages.pageSize) / 1024]
        : ['pages per event', 'no -shm WAL-index', '-', '-', '-', '-', '-']]),
    table(`Warm appends at ${paced.ratePerSecond} requests/s, paced (admission + billing append per request, ${paced.durationS} s; ms)`,
      ['append', 'count', 'p50', 'p90', 'p99', 'max'], [
        ['all appends', paced.latencyMs.count, ...latencyCells(paced.latencyMs)],
        ['admission (RequestAdmitted)', paced.admissionMs.count, ...latencyCells(paced.admissionMs)],
        ['billing (UsageMeasured + CostPriced)', paced.billingMs.count, ...latencyCells(paced.billingMs)],
        [`sender lag (failed: ${paced.failed})`, paced.sendLagMs.count, ...latencyCells(paced.sendLagMs)],
      ]),
  ];
}

function sizeTables({ writePath, bytesPerRequest }: StoreFiguresWithFsync): string[] {
  const bytes = bytesPerRequest;
  const split = (bytes.split ?? []).map((object): Cell[] => [object.name, String(object.pages), object.bytes / bytes.requests, object.payloadBytes / bytes.requests]);
  return [
    table('Write path: durable appends of UsageMeasured + CostPriced (2 events) per request stream',
      ['writers', 'events/s', 'appends/s', 'p50 ms', 'p99 ms', 'largest commit (appends)'],
      writePath.map((run) => [String(run.writers), run.eventsPerSecond, run.appendsPerSecond, run.latencyMs.p50, run.latencyMs.p99, run.largestCommitBatch])),
    table(`Bytes on disk: ${bytes.requests} billed requests (admission + billing appends, ${bytes.inFlight} in flight), store closed`,
      ['file / table or index', 'pages', 'bytes per request', 'payload bytes per request'], [
        ['events.sqlite + WAL', '-', bytes.bytesPerRequest, '-'],
        ...(bytes.split ? split : [['(dbstat not available: no split)', '-', '-', '-']]),
      ]),
  ];
}

export function storeFigureTables(figures: StoreFiguresWithFsync): string[] {
  return [...appendTables(figures), ...sizeTables(figures)];
}

export function targetsTable(targets: TargetCheck[]): string {
  return table('Targets', ['target', 'limit', 'measured', 'result'], targets.map((check) => [check.target, check.limit, check.measured, check.met ? 'met' : `MISSED: ${check.missedBy}`]));
}
