// Section 3: GET /v1/organization/costs over the 1-million-request store. The cached store is copied
// into this run's data directory (where rebuild.ts rebuilds its cost projection), then the gateway is
// started on it (start-up timed: the rate-limit and model-status projections replay the store) and
// queried for 31 daily buckets: sequentially (latency of one query) and over concurrent connections.
import { copyFileSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { EVENTS_FILE_NAME } from '../../src/event-store/sqlite/sqlite-event-store';
import { runLoad, type LoadResult } from '../lib/load';
import { msSince, summarize, type LatencySummary } from '../lib/samples';
import { writeCostsConfig } from '../gateway-config';
import { startGatewayProcess, type BenchContext } from '../overhead/overhead';
import type { CostStore } from './cost-store';
import { SECONDS_PER_DAY } from '../../src/costs/domain/utc-day';

const BUCKETS = 31;

export interface QueryLatency {
  query: string;
  ok: number;
  failed: number;
  latencyMs: LatencySummary;
}

export interface CostQueryResults {
  gatewayStartupMs: number;
  sequential: QueryLatency;
  sequentialByLineItem: QueryLatency;
  concurrent: LoadResult;
}

export function prepareDataDir(store: CostStore, runDir: string): string {
  const dataDir = join(runDir, 'costs-data');
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(join(store.dir, EVENTS_FILE_NAME), join(dataDir, EVENTS_FILE_NAME), constants.COPYFILE_FICLONE);
  return dataDir;
}

function costPath(store: CostStore, groupByLineItem: boolean): string {
  // A full page of 31 days in the middle of the generated range.
  const start = store.meta.firstDay + 30 * SECONDS_PER_DAY;
  const end = start + BUCKETS * SECONDS_PER_DAY;
  return `/v1/organization/costs?start_time=${start}&end_time=${end}&limit=${BUCKETS}${groupByLineItem ? '&group_by=line_item' : ''}`;
}

async function sequentialQueries(url: string, apiKey: string, store: CostStore, count: number, groupByLineItem: boolean): Promise<QueryLatency> {
  const pool = new Pool(url, { connections: 1 });
  const path = costPath(store, groupByLineItem);
  const samples: number[] = [];
  let failed = 0;
  try {
    for (let i = 0; i < count; i++) {
      const organization = store.meta.organizationIds[i % store.meta.organizationIds.length];
      const startNs = process.hrtime.bigint();
      const response = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${apiKey}`, 'x-organization-id': organization } });
      const page = (await response.body.json()) as { data?: unknown[] };
      const elapsed = msSince(startNs);
      if (response.statusCode === 200 && page.data?.length === BUCKETS) samples.push(elapsed);
      else failed++;
    }
  } finally {
    await pool.close();
  }
  return { query: path, ok: samples.length, failed, latencyMs: summarize(samples) };
}

export async function runCostQueries(ctx: BenchContext, store: CostStore, dataDir: string): Promise<CostQueryResults> {
  const config = writeCostsConfig(join(ctx.runDir, 'costs-config'), store.meta.organizationIds);
  ctx.log('  starting the gateway on the store ...');
  const gateway = await startGatewayProcess(ctx, 'gateway (cost store)', dataDir, config.path);
  try {
    ctx.log('  querying ...');
    const sequential = await sequentialQueries(gateway.url, config.apiKey, store, ctx.settings.costQueries, false);
    const sequentialByLineItem = await sequentialQueries(gateway.url, config.apiKey, store, Math.ceil(ctx.settings.costQueries / 2), true);
    const target = { url: gateway.url, path: costPath(store, false), method: 'GET' as const, headers: { authorization: `Bearer ${config.apiKey}`, 'x-organization-id': store.meta.organizationIds[0] } };
    const concurrent = await runLoad(target, { connections: ctx.settings.connections, durationS: ctx.settings.durationS });
    return { gatewayStartupMs: gateway.startupMs, sequential, sequentialByLineItem, concurrent };
  } finally {
    await gateway.stop();
  }
}
