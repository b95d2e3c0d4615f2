// Closed-loop load with autocannon (N connections, each sending its next request as soon as the last
// one answered). Latencies are collected from autocannon's per-response event in fractional
// milliseconds, because its own histogram records whole milliseconds.
import { randomUUID } from 'node:crypto';
import { summarize, type LatencySummary } from './samples';

interface AutocannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): void;
}

// autocannon ships no types; this is the part of its programmatic API used here.
const autocannon = require('autocannon') as (options: Record<string, unknown>) => AutocannonInstance;

export interface LoadTarget {
  url: string;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** A header sent with a new random value on every request (e.g. `idempotency-key`). */
  uniqueHeader?: string;
}

export interface LoadOptions {
  connections: number;
  durationS: number;
  /** Requests per second over all connections (autocannon `overallRate`); omitted: as fast as possible. */
  overallRate?: number;
}

export interface LoadResult {
  ok: number;
  failed: number;
  durationS: number;
  requestsPerSecond: number;
  /** Latency of 2xx responses, milliseconds. */
  latencyMs: LatencySummary;
  statusCodes: Record<string, number>;
}

function withUniqueHeader(name: string) {
  return (request: { headers?: Record<string, string> }) => ({ ...request, headers: { ...request.headers, [name]: randomUUID() } });
}

export async function runLoad(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  const samples: number[] = [];
  const instance = autocannon({
    url: target.url + target.path,
    method: target.method ?? 'POST',
    headers: target.headers,
    body: target.body,
    connections: options.connections,
    duration: options.durationS,
    overallRate: options.overallRate,
    timeout: 10,
    ...(target.uniqueHeader ? { requests: [{ setupRequest: withUniqueHeader(target.uniqueHeader) }] } : {}),
  });
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    if (statusCode >= 200 && statusCode < 300) samples.push(responseTimeMs);
  });
  const result = await instance;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count]));
  return {
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
    durationS: result.duration,
    requestsPerSecond: result['2xx'] / result.duration,
    latencyMs: summarize(samples),
    statusCodes,
  };
}
