// Fixed windows counted in this replica's memory: the management API's limit per management key and
// a key's own `rate_limit`. Deliberately simple (no events, no I/O): with N replicas an id can make up
// to N x `requests` calls per window, the bound docs/keys-and-budgets.md states.

export interface WindowDecision {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window starts over (at least 1). */
  retryAfterSeconds: number;
}

export const MANAGEMENT_RATE_LIMIT = { requests: 120, window_seconds: 60 };

interface Window {
  start: number;
  count: number;
}

export class FixedWindows {
  private readonly windows = new Map<string, Window>();

  admit(id: string, requests: number, windowMs: number, nowMs: number): WindowDecision {
    let window = this.windows.get(id);
    if (!window || nowMs - window.start >= windowMs) {
      window = { start: nowMs, count: 0 };
      this.windows.set(id, window);
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + windowMs - nowMs) / 1000));
    if (window.count >= requests) return { admitted: false, limit: requests, remaining: 0, retryAfterSeconds };
    window.count += 1;
    return { admitted: true, limit: requests, remaining: requests - window.count, retryAfterSeconds };
  }
}

export class ManagementRateWindow {
  private readonly windows = new FixedWindows();

  constructor(
    readonly requests = MANAGEMENT_RATE_LIMIT.requests,
    readonly windowMs = MANAGEMENT_RATE_LIMIT.window_seconds * 1000,
  ) {}

  admit(keyId: string, nowMs: number): WindowDecision {
    return this.windows.admit(keyId, this.requests, this.windowMs, nowMs);
  }
}

/** Keys' own rate limits (`rate_limit` of a runtime key), one window per key id. */
export class KeyRateWindows extends FixedWindows {}
