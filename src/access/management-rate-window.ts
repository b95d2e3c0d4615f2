// The management API's rate limit: a fixed window per management key, counted in this replica's
// memory. Deliberately simple (management calls are rare and come from scripts): with N replicas a key
// can make up to N x `requests` calls per window, the bound docs/keys-and-budgets.md states.

export interface WindowDecision {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window starts over (at least 1) when refused. */
  retryAfterSeconds: number;
}

export const MANAGEMENT_RATE_LIMIT = { requests: 120, window_seconds: 60 };

interface Window {
  start: number;
  count: number;
}

export class ManagementRateWindow {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly requests = MANAGEMENT_RATE_LIMIT.requests,
    readonly windowMs = MANAGEMENT_RATE_LIMIT.window_seconds * 1000,
  ) {}

  admit(keyId: string, nowMs: number): WindowDecision {
    let window = this.windows.get(keyId);
    if (!window || nowMs - window.start >= this.windowMs) {
      window = { start: nowMs, count: 0 };
      this.windows.set(keyId, window);
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - nowMs) / 1000));
    if (window.count >= this.requests) return { admitted: false, limit: this.requests, remaining: 0, retryAfterSeconds };
    window.count += 1;
    return { admitted: true, limit: this.requests, remaining: this.requests - window.count, retryAfterSeconds };
  }
}
