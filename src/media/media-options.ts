// Time limits for the external tools. Probing decodes the whole clip, so it scales with length;
// these bound one call, and callers with tighter budgets pass their own.
export interface MediaOptions {
  timeoutMs?: number;
}

export const PROBE_TIMEOUT_MS = 30_000;
export const TRANSCODE_TIMEOUT_MS = 120_000;
