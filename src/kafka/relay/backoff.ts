// Exponential backoff between relay attempts while the broker is unreachable.
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 30_000 };

/** Delay before retry number `failures` (1 = first retry): initial, doubled each time, capped. */
export function backoffDelayMs(failures: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const exponent = Math.max(0, failures - 1);
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(exponent, 30));
}
