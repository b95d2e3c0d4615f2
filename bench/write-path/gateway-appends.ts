// What the gateway appends for one chat request, for the store benchmarks: the rate limiter's
// admission (RequestAdmitted, one event, a new `request-<id>` stream, expectedRevision `any` as
// event-sourced-rate-limiter.ts writes it) before the upstream call, then BillingService's
// UsageMeasured + CostPriced on the same stream once the answer is metered and priced.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { createPlainRowsStore } from '../../src/event-store/sqlite/plain-rows-schema';
import { readInlineCommits } from '../../src/event-store/sqlite/store-env';
import { DEFAULT_CATCH_UP_TIMING } from '../../src/event-store/catch-up-subscription';
import { eventIdFor, newRequestId, requestStreamId } from '../../src/event-store/event-ids';
import { EVENT_SCHEMA_VERSION } from '../../src/event-store/gateway-event-types';
import { type RequestAdmittedV1 } from '../../src/rate-limits/rate-limit.events';
import type { EventStore, NewEvent } from '../../src/event-store/event-store.port';
import { msSince } from '../lib/samples';
import { billingEvents, pricedShapes } from '../costs/priced-requests';

export const ORGANIZATION_ID = 'org-bench-000';
const shapes = pricedShapes();

export function admissionEvent(requestId: string): NewEvent<RequestAdmittedV1> {
  const data: RequestAdmittedV1 = { requestId, organizationId: ORGANIZATION_ID, keyId: 'key-bench', endpoint: '/v1/chat/completions', admittedAt: Date.now() };
  return { id: eventIdFor(requestId, 'RequestAdmitted'), type: 'RequestAdmitted', data, metadata: { schemaVersion: EVENT_SCHEMA_VERSION } };
}

/** Appends one admission to a new request stream; returns its latency from the caller's side, ms. */
export async function appendAdmission(store: EventStore, requestId = newRequestId()): Promise<number> {
  const event = admissionEvent(requestId);
  const startNs = process.hrtime.bigint();
  await store.append(requestStreamId(requestId), [event]);
  return msSince(startNs);
}

export interface RequestTiming {
  admissionMs: number;
  billingMs: number;
}

/** One billed chat request's two appends, in the gateway's order; `index` picks the priced shape. */
export async function appendBilledRequest(store: EventStore, index: number): Promise<RequestTiming> {
  const requestId = newRequestId();
  const admissionMs = await appendAdmission(store, requestId);
  const events = billingEvents(shapes[index % shapes.length], { requestId, organizationId: ORGANIZATION_ID, occurredAt: new Date().toISOString() });
  const startNs = process.hrtime.bigint();
  await store.append(requestStreamId(requestId), events);
  return { admissionMs, billingMs: msSince(startNs) };
}

/**
 * The row format the store benchmarks create their stores in: `BENCH_STORE_ROWS=plain` makes them as
 * stores were made before the compact rows (plain-rows-schema.ts), to measure the old write path beside
 * the new one with everything else the same; anything else, as the gateway makes them today.
 */
export const STORE_ROWS = process.env.BENCH_STORE_ROWS === 'plain' ? 'plain' : 'compact';

/** Opens the store in `dir` (existing, empty), created in the benchmark's row format, committing inline
 * unless GATEWAY_STORE_INLINE_COMMITS=off (as the gateway reads it). */
export function openBenchStore(dir: string): Promise<SqliteEventStore> {
  if (STORE_ROWS === 'plain') createPlainRowsStore(dir);
  return SqliteEventStore.open(dir, DEFAULT_CATCH_UP_TIMING, { inlineCommits: readInlineCommits() });
}

/** A store in a fresh, empty directory `<rootDir>/<name>`. */
export async function openFreshStore(rootDir: string, name: string): Promise<{ store: SqliteEventStore; dir: string }> {
  const dir = join(rootDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { store: await openBenchStore(dir), dir };
}
