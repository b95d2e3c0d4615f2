// The soak's open-loop sender: send i is due at start + i/rate whatever the answers did (as
// bench/lib/paced.ts paces one request), its kind taken from the mix schedule. Every answer is read
// to its end (a stream to `data: [DONE]`) and reported with its status; a non-2xx answer keeps the
// start of its body so the run can print why.
import { Pool } from 'undici';
import { msSince, sleep } from '../lib/samples';
import type { SoakKind } from './mix';
import type { SoakRequest } from './requests';

export interface SoakAnswer {
  kind: SoakKind;
  /** The HTTP status, or `error` (no answer, or a stream cut short of `data: [DONE]`). */
  status: number | 'error';
  totalMs: number;
  /** The start of the body of a non-2xx answer, or the error's message. */
  detail?: string;
}

export interface MixedLoadOptions {
  ratePerSecond: number;
  durationS: number;
  connections: number;
  kindOf(index: number): SoakKind;
  requests: Record<SoakKind, SoakRequest>;
  onAnswer(answer: SoakAnswer): void;
}

export interface MixedLoadResult {
  sent: number;
  /** Seconds from the first send to the last one. */
  sendingS: number;
  /** Answers still open when the drain gave up. */
  unanswered: number;
}

const DRAIN_LIMIT_MS = 60_000;
const KEPT_BODY_CHARS = 300;

export async function runMixedLoad(gatewayUrl: string, options: MixedLoadOptions): Promise<MixedLoadResult> {
  const pool = new Pool(gatewayUrl, { connections: options.connections, keepAliveTimeout: 30_000, bodyTimeout: 120_000, headersTimeout: 120_000 });
  const total = Math.round(options.ratePerSecond * options.durationS);
  const inFlight = new Set<Promise<void>>();
  const startNs = process.hrtime.bigint();
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor((msSince(startNs) * options.ratePerSecond) / 1000) + 1);
    for (; sent < due; sent++) {
      const kind = options.kindOf(sent);
      const request = sendOne(pool, kind, options.requests[kind]).then(options.onAnswer);
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    await sleep(1);
  }
  const sendingS = msSince(startNs) / 1000;
  await Promise.race([Promise.all(inFlight), sleep(DRAIN_LIMIT_MS)]);
  const unanswered = inFlight.size;
  await pool.destroy();
  return { sent: total, sendingS, unanswered };
}

async function sendOne(pool: Pool, kind: SoakKind, request: SoakRequest): Promise<SoakAnswer> {
  const startNs = process.hrtime.bigint();
  try {
    const response = await pool.request({ method: 'POST', path: request.path, headers: request.headers, body: request.body });
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    let head = '';
    let tail = '';
    for await (const chunk of response.body) {
      const text = (chunk as Buffer).toString('latin1');
      if (!ok && head.length < KEPT_BODY_CHARS) head += text.slice(0, KEPT_BODY_CHARS - head.length);
      if (request.expectDone) tail = (tail + text).slice(-64);
    }
    const totalMs = msSince(startNs);
    if (!ok) return { kind, status: response.statusCode, totalMs, detail: head };
    if (request.expectDone && !tail.includes('data: [DONE]')) return { kind, status: 'error', totalMs, detail: 'stream ended without data: [DONE]' };
    return { kind, status: response.statusCode, totalMs };
  } catch (error) {
    return { kind, status: 'error', totalMs: msSince(startNs), detail: error instanceof Error ? error.message : String(error) };
  }
}
