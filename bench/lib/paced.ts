// Open-loop load at a fixed offered rate: request i is due at start + i/rate whatever the previous
// answers did, over a keep-alive pool. Unlike autocannon's rate option (a per-connection quota each
// second, i.e. a burst of every connection at each second boundary) this offers a steady rate, so
// its latencies are the service's, not a burst's queue. Streams record time to the first body chunk.
import { Pool } from 'undici';
import { msSince, sleep, summarize, type LatencySummary } from './samples';
import type { LoadTarget } from './load';

export interface PacedOptions {
  ratePerSecond: number;
  durationS: number;
  connections: number;
  /** Streams must end with `data: [DONE]`; a stream cut short counts as failed. */
  expectStreamEnd?: boolean;
}

export interface PacedResult {
  sent: number;
  ok: number;
  failed: number;
  /** Full response time, milliseconds. */
  latencyMs: LatencySummary;
  /** Time to the first body chunk, milliseconds. */
  firstChunkMs: LatencySummary;
  /** How late the sender was against the schedule, milliseconds (a loaded load generator shows here). */
  sendLagMs: LatencySummary;
}

const DRAIN_LIMIT_MS = 30_000;

export async function runPaced(target: LoadTarget, options: PacedOptions): Promise<PacedResult> {
  const pool = new Pool(target.url, { connections: options.connections, keepAliveTimeout: 30_000 });
  const total = Math.round(options.ratePerSecond * options.durationS);
  const latencies: number[] = [];
  const firstChunks: number[] = [];
  const lags: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const startNs = process.hrtime.bigint();
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor((msSince(startNs) * options.ratePerSecond) / 1000) + 1);
    for (; sent < due; sent++) {
      lags.push(msSince(startNs) - (sent * 1000) / options.ratePerSecond);
      const request = sendOne(pool, target, options.expectStreamEnd === true).then(
        (timing) => {
          latencies.push(timing.totalMs);
          firstChunks.push(timing.firstChunkMs);
        },
        () => undefined,
      );
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    await sleep(1);
  }
  await Promise.race([Promise.all(inFlight), sleep(DRAIN_LIMIT_MS)]);
  await pool.destroy();
  return { sent: total, ok: latencies.length, failed: total - latencies.length, latencyMs: summarize(latencies), firstChunkMs: summarize(firstChunks), sendLagMs: summarize(lags) };
}

async function sendOne(pool: Pool, target: LoadTarget, expectStreamEnd: boolean): Promise<{ totalMs: number; firstChunkMs: number }> {
  const startNs = process.hrtime.bigint();
  const response = await pool.request({ method: target.method ?? 'POST', path: target.path, headers: target.headers, body: target.body });
  let firstChunkMs = NaN;
  let tail = '';
  for await (const chunk of response.body) {
    if (Number.isNaN(firstChunkMs)) firstChunkMs = msSince(startNs);
    tail = (tail + (chunk as Buffer).toString('utf8')).slice(-256);
  }
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}: ${tail}`);
  if (expectStreamEnd && !tail.includes('data: [DONE]')) throw new Error('stream ended without data: [DONE]');
  return { totalMs: msSince(startNs), firstChunkMs };
}
