// Time limits for the external tools. Probing decodes the whole clip, so it scales with length;
// these bound one call, and callers with tighter budgets pass their own.
import type { MediaWork } from './media-work';

export interface MediaOptions {
  timeoutMs?: number;
  /** The request's slots, signal, limits and counter; without it a run gets the default child limits only. */
  work?: MediaWork;
}

export const PROBE_TIMEOUT_MS = 30_000;
export const TRANSCODE_TIMEOUT_MS = 120_000;
