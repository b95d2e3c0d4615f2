// The gateway's own view of itself, read from its /metrics (prom-client's default Node metrics): the
// event-loop lag p99 since the previous scrape (prom-client resets its monitorEventLoopDelay histogram
// at every scrape, so one scrape per window gives that window's p99) and where its memory is.

export interface GatewayRuntimeFigures {
  /** Event-loop delay p99 since the previous scrape, ms (includes the monitor's 10 ms resolution). */
  lagP99Ms: number;
  lagMaxMs: number;
  heapUsedMiB: number;
  /** V8's heap as reserved from the system (used + free space of its pages). */
  heapTotalMiB: number;
  /** Memory held outside V8's heap by JavaScript objects (Buffers above all). */
  externalMiB: number;
  residentMiB: number;
}

/** The value of an unlabelled sample `name` in a Prometheus text exposition; NaN when absent. */
export function sampleValue(exposition: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([^ \\n]+)`, 'm').exec(exposition);
  return match ? Number(match[1]) : NaN;
}

const MiB = 1024 * 1024;

/** The nodejs_heap_size_used_bytes etc. of prom-client's default metrics, as in the exposition. */
export function runtimeFigures(exposition: string): GatewayRuntimeFigures {
  return {
    lagP99Ms: sampleValue(exposition, 'nodejs_eventloop_lag_p99_seconds') * 1000,
    lagMaxMs: sampleValue(exposition, 'nodejs_eventloop_lag_max_seconds') * 1000,
    heapUsedMiB: sampleValue(exposition, 'nodejs_heap_size_used_bytes') / MiB,
    heapTotalMiB: sampleValue(exposition, 'nodejs_heap_size_total_bytes') / MiB,
    externalMiB: sampleValue(exposition, 'nodejs_external_memory_bytes') / MiB,
    residentMiB: sampleValue(exposition, 'process_resident_memory_bytes') / MiB,
  };
}

export async function scrapeRuntimeFigures(gatewayUrl: string): Promise<GatewayRuntimeFigures> {
  const response = await fetch(`${gatewayUrl}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  const figures = runtimeFigures(await response.text());
  if (Number.isNaN(figures.lagP99Ms)) throw new Error('/metrics has no nodejs_eventloop_lag_p99_seconds');
  return figures;
}
