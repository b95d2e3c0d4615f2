// The cost benchmark's store: N priced requests (one CostPriced each, in its own request stream) across
// the organizations and the days before today, appended through the store's API with many appends in
// flight so group commit packs each commit with ~1000 of them. Generation takes a while, so the result
// is cached under .cache/bench/ keyed by a version string; a change of shape or size regenerates it.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { requestStreamId } from '../../src/event-store/event-ids';
import { msSince } from '../lib/samples';
import { costPricedEvent, pricedShapes } from './priced-requests';
import { SECONDS_PER_DAY } from '../../src/costs/domain/utc-day';

/** Bump when the generated events change shape. */
const GENERATOR_VERSION = 1;
const APPENDS_IN_FLIGHT = 1000;

export interface CostStoreSpec {
  requests: number;
  organizations: number;
  days: number;
}

export interface CostStoreMeta extends CostStoreSpec {
  version: string;
  /** Unix seconds of the first generated day (UTC midnight). */
  firstDay: number;
  organizationIds: string[];
  generationSeconds: number;
  appendsPerSecond: number;
}

export interface CostStore {
  dir: string;
  meta: CostStoreMeta;
  /** False when an earlier run's cache was reused. */
  generatedNow: boolean;
}

export const organizationIdOf = (index: number) => `org-bench-${String(index).padStart(3, '0')}`;

function versionOf(spec: CostStoreSpec): string {
  return `cost-store-v${GENERATOR_VERSION}-${spec.requests}r-${spec.organizations}o-${spec.days}d`;
}

export async function ensureCostStore(cacheRoot: string, spec: CostStoreSpec, log: (line: string) => void): Promise<CostStore> {
  const version = versionOf(spec);
  const dir = join(cacheRoot, version);
  const metaFile = join(dir, 'meta.json');
  if (existsSync(metaFile)) return { dir, meta: JSON.parse(readFileSync(metaFile, 'utf8')) as CostStoreMeta, generatedNow: false };
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const meta = await generate(partial, spec, version, log);
  writeFileSync(join(partial, 'meta.json'), JSON.stringify(meta, null, 2));
  renameSync(partial, dir);
  return { dir, meta, generatedNow: true };
}

async function generate(dir: string, spec: CostStoreSpec, version: string, log: (line: string) => void): Promise<CostStoreMeta> {
  const shapes = pricedShapes();
  const organizationIds = Array.from({ length: spec.organizations }, (_, index) => organizationIdOf(index));
  const firstDay = Math.floor(Date.now() / 1000 / SECONDS_PER_DAY) * SECONDS_PER_DAY - spec.days * SECONDS_PER_DAY;
  const secondsPerRequest = (spec.days * SECONDS_PER_DAY) / spec.requests;
  const store = await SqliteEventStore.open(dir);
  const startNs = process.hrtime.bigint();
  let next = 0;
  const appender = async () => {
    for (let index = next++; index < spec.requests; index = next++) {
      const requestId = `bench-${index}`;
      // Time order follows append order, as in a live store; organizations and shapes interleave.
      const occurredAt = new Date((firstDay + index * secondsPerRequest) * 1000).toISOString();
      const event = costPricedEvent(shapes[(index * 7) % shapes.length], { requestId, organizationId: organizationIds[(index * 13) % spec.organizations], occurredAt });
      await store.append(requestStreamId(requestId), [event]);
      if ((index + 1) % 100_000 === 0) log(`    ${index + 1} priced requests appended (${(msSince(startNs) / 1000).toFixed(0)} s)`);
    }
  };
  try {
    await Promise.all(Array.from({ length: APPENDS_IN_FLIGHT }, appender));
  } finally {
    await store.close();
  }
  const generationSeconds = msSince(startNs) / 1000;
  return { ...spec, version, firstDay, organizationIds, generationSeconds, appendsPerSecond: spec.requests / generationSeconds };
}
