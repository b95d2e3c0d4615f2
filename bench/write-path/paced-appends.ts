// Warm appends at a steady offered rate (500 requests/s by default): request i is due at
// start + i/rate whatever the earlier ones did (open loop, as bench/lib/paced.ts offers HTTP load),
// and does what the gateway does per chat request: the admission append, then the billing append.
// Latencies are from the caller's side, per append, until durable.
import { msSince, sleep, summarize, type LatencySummary } from '../lib/samples';
import type { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { appendBilledRequest, openFreshStore } from './gateway-appends';

const WARMUP_S = 1;
/** Bounds the wait for the last requests, whatever the store does. */
const DRAIN_LIMIT_MS = 30_000;

export interface PacedAppendResult {
  ratePerSecond: number;
  durationS: number;
  requests: number;
  failed: number;
  /** Every append, admission and billing together, ms. */
  latencyMs: LatencySummary;
  /** RequestAdmitted (1 event) alone, ms. */
  admissionMs: LatencySummary;
  /** UsageMeasured + CostPriced (2 events) alone, ms. */
  billingMs: LatencySummary;
  /** How late the sender was against the schedule, ms (a busy main thread shows here). */
  sendLagMs: LatencySummary;
}

interface Samples {
  admission: number[];
  billing: number[];
  lags: number[];
}

async function offer(store: SqliteEventStore, ratePerSecond: number, durationS: number, samples: Samples | null): Promise<number> {
  const total = Math.round(ratePerSecond * durationS);
  const inFlight = new Set<Promise<void>>();
  const startNs = process.hrtime.bigint();
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor((msSince(startNs) * ratePerSecond) / 1000) + 1);
    for (; sent < due; sent++) {
      samples?.lags.push(msSince(startNs) - (sent * 1000) / ratePerSecond);
      const request = appendBilledRequest(store, sent).then(
        (timing) => {
          samples?.admission.push(timing.admissionMs);
          samples?.billing.push(timing.billingMs);
        },
        () => undefined,
      );
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    await sleep(1);
  }
  await drained(inFlight);
  return total;
}

/** Waits for the requests still in flight, at most DRAIN_LIMIT_MS (the timer cleared, so it keeps no process alive). */
async function drained(inFlight: Set<Promise<void>>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_LIMIT_MS)));
  await Promise.race([Promise.all(inFlight), limit]);
  clearTimeout(timer);
}

export async function measurePacedAppends(rootDir: string, ratePerSecond: number, durationS: number): Promise<PacedAppendResult> {
  const { store } = await openFreshStore(rootDir, `paced-appends-${ratePerSecond}`);
  try {
    await offer(store, ratePerSecond, WARMUP_S, null);
    const samples: Samples = { admission: [], billing: [], lags: [] };
    const requests = await offer(store, ratePerSecond, durationS, samples);
    return {
      ratePerSecond,
      durationS,
      requests,
      // Failed, or not finished within the drain limit.
      failed: requests - samples.admission.length,
      latencyMs: summarize([...samples.admission, ...samples.billing]),
      admissionMs: summarize(samples.admission),
      billingMs: summarize(samples.billing),
      sendLagMs: summarize(samples.lags),
    };
  } finally {
    await store.close();
  }
}
