// `npm run bench:store` with BENCH_STORE_POSTGRES_URL: the PostgreSQL store's figures beside the embedded
// store's, on the same billing appends (UsageMeasured + CostPriced to a new request stream per append):
// the cold single-event append (a RequestAdmitted after an idle gap, as bench:store takes it for SQLite),
// 1/10/100 concurrent writers for the same time, and bytes per billed request (admission + billing,
// table and indexes). Each measurement runs in a database of its own, created on that server and dropped.
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { DEFAULT_POOL_SETTINGS } from '../../src/event-store/postgres/postgres-pool';
import { newRequestId, requestStreamId } from '../../src/event-store/event-ids';
import { billingEvents, pricedShapes } from '../costs/priced-requests';
import { msSince, summarize, type LatencySummary } from '../lib/samples';
import { appendAdmission, appendBilledRequest } from './gateway-appends';
import { sleep } from '../lib/samples';
import { WRITERS } from './store-figures';
import { table, type Cell } from '../report/table';
import { withClient } from '../../test/support/postgres-database';

export interface PostgresWriteRun {
  writers: number;
  appends: number;
  appendsPerSecond: number;
  eventsPerSecond: number;
  latencyMs: LatencySummary;
}

export interface PostgresFigures {
  server: string;
  poolSize: number;
  /** Caller's-side latency of one RequestAdmitted after `gapMs` idle, `appends` times (after 20 warm ones). */
  coldAppend: { appends: number; gapMs: number; latencyMs: LatencySummary };
  writePath: PostgresWriteRun[];
  bytesPerRequest: { requests: number; bytes: number; bytesPerRequest: number };
}

const shapes = pricedShapes();
const POOL_SIZE = 10;

/** A store on a fresh database of the server `url` points at; `drop` removes it. */
async function freshStore(url: string): Promise<{ store: PostgresEventStore; databaseUrl: string; drop(): Promise<void> }> {
  const name = `gateway_bench_${randomUUID().replace(/-/g, '')}`;
  await withClient(url, (client) => client.query(`CREATE DATABASE ${name}`));
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  const store = await PostgresEventStore.connect(databaseUrl.toString(), { pool: { ...DEFAULT_POOL_SETTINGS, poolSize: POOL_SIZE } });
  return { store, databaseUrl: databaseUrl.toString(), drop: () => withClient(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined) };
}

async function measureWriters(url: string, writers: number, durationS: number): Promise<PostgresWriteRun> {
  const { store, drop } = await freshStore(url);
  try {
    const samples: number[] = [];
    const until = performance.now() + durationS * 1000;
    const startNs = process.hrtime.bigint();
    const loop = async (): Promise<number> => {
      let appended = 0;
      for (; performance.now() < until; appended++) {
        const requestId = newRequestId();
        const events = billingEvents(shapes[appended % shapes.length], { requestId, organizationId: 'org-bench-000', occurredAt: new Date().toISOString() });
        const appendNs = process.hrtime.bigint();
        await store.append(requestStreamId(requestId), events);
        samples.push(msSince(appendNs));
      }
      return appended;
    };
    const appends = (await Promise.all(Array.from({ length: writers }, loop))).reduce((sum, n) => sum + n, 0);
    const elapsedS = msSince(startNs) / 1000;
    return { writers, appends, appendsPerSecond: appends / elapsedS, eventsPerSecond: (appends * 2) / elapsedS, latencyMs: summarize(samples) };
  } finally {
    await store.close();
    await drop();
  }
}

async function measureColdAppend(url: string, appends: number, gapMs: number): Promise<PostgresFigures['coldAppend']> {
  const { store, drop } = await freshStore(url);
  try {
    for (let warm = 0; warm < 20; warm++) await appendAdmission(store);
    const samples: number[] = [];
    for (let index = 0; index < appends; index++) {
      await sleep(gapMs);
      samples.push(await appendAdmission(store));
    }
    return { appends, gapMs, latencyMs: summarize(samples) };
  } finally {
    await store.close();
    await drop();
  }
}

async function measureBytes(url: string, requests: number): Promise<PostgresFigures['bytesPerRequest']> {
  const { store, databaseUrl, drop } = await freshStore(url);
  try {
    let next = 0;
    await Promise.all(Array.from({ length: 50 }, async () => {
      while (next < requests) await appendBilledRequest(store, next++);
    }));
    const bytes = await withClient(databaseUrl, async (client) => {
      await client.query('VACUUM ANALYZE gateway_events');
      const { rows } = await client.query<{ bytes: string }>(`SELECT pg_total_relation_size('gateway_events')::text AS bytes`);
      return Number(rows[0].bytes);
    });
    return { requests, bytes, bytesPerRequest: Math.round(bytes / requests) };
  } finally {
    await store.close();
    await drop();
  }
}

export async function measurePostgresFigures(url: string, settings: { writeS: number; bytesRequests: number; coldAppends: number; coldGapMs: number }, log: (line: string) => void, writerCounts = WRITERS): Promise<PostgresFigures> {
  const server = await withClient(url, async (client) => (await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version);
  log(`  PostgreSQL: cold single-event append (${settings.coldAppends} after ${settings.coldGapMs} ms idle each) ...`);
  const coldAppend = await measureColdAppend(url, settings.coldAppends, settings.coldGapMs);
  const writePath: PostgresWriteRun[] = [];
  for (const writers of writerCounts) {
    log(`  PostgreSQL: ${writers} concurrent writer(s) (${settings.writeS} s) ...`);
    writePath.push(await measureWriters(url, writers, settings.writeS));
  }
  log(`  PostgreSQL: bytes per billed request (${settings.bytesRequests} requests) ...`);
  return { server, poolSize: POOL_SIZE, coldAppend, writePath, bytesPerRequest: await measureBytes(url, settings.bytesRequests) };
}

export function postgresFiguresTable(figures: PostgresFigures): string {
  const cold = figures.coldAppend;
  const rows: Cell[][] = [
    ['cold single-event append, ms', cold.latencyMs.p50, cold.latencyMs.p99, `${cold.appends} appends, each after ${cold.gapMs} ms idle`],
    ...figures.writePath.map((run): Cell[] => [`${run.writers} writer(s): events/s`, run.eventsPerSecond, '-', `append p50 ${run.latencyMs.p50.toFixed(2)} ms, p99 ${run.latencyMs.p99.toFixed(2)} ms`]),
    ['bytes per billed request (table + indexes)', figures.bytesPerRequest.bytesPerRequest, '-', `${figures.bytesPerRequest.requests} requests`],
  ];
  return table(`PostgreSQL store figures (server ${figures.server}, pool ${figures.poolSize})`, ['figure', 'p50 / value', 'p99', 'note'], rows);
}
