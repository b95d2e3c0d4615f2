// What the runtime starts and stops beside the HTTP server (projections, the spool, the rate limiter,
// model status, write tracking). A leaf: the services implement it without importing the runtime.

export interface BackgroundService {
  name: string;
  /** True once it is caught up enough to serve (readiness). */
  ready(): boolean;
  /** What /readyz shows about it beside the boolean (cheap: no event-store reads). */
  details?(): Record<string, unknown>;
  stop(): Promise<void>;
}
