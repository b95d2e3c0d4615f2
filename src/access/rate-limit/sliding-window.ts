// Sliding-window log per organization: the admission times of the last window. Exact (no burst
// at window edges like a fixed window) and Retry-After is exactly when the oldest entry expires.
import type { RateLimitConfig } from '../access.types';
import type { AdmissionDecision } from './rate-limiter.port';

/** Admission times (Unix ms), ascending. */
export type AdmissionLog = number[];

export function pruneLog(log: AdmissionLog, windowMs: number, nowMs: number): AdmissionLog {
  const cutoff = nowMs - windowMs;
  let start = 0;
  while (start < log.length && log[start] <= cutoff) start++;
  return start === 0 ? log : log.slice(start);
}

export function decideAdmission(log: AdmissionLog, limit: RateLimitConfig, nowMs: number): AdmissionDecision {
  const windowMs = limit.window_seconds * 1000;
  const live = pruneLog(log, windowMs, nowMs);
  if (live.length < limit.requests) {
    return { admitted: true, limit: limit.requests, remaining: limit.requests - live.length - 1, retryAfterSeconds: 0 };
  }
  const nextFreeAt = live[live.length - limit.requests] + windowMs;
  return {
    admitted: false,
    limit: limit.requests,
    remaining: 0,
    retryAfterSeconds: Math.max(1, Math.ceil((nextFreeAt - nowMs) / 1000)),
  };
}

/** Inserts keeping ascending order (events from other replicas may arrive slightly out of order). */
export function recordAdmission(log: AdmissionLog, atMs: number): AdmissionLog {
  let i = log.length;
  while (i > 0 && log[i - 1] > atMs) i--;
  return [...log.slice(0, i), atMs, ...log.slice(i)];
}
