// How long answers are kept, how large a kept answer may be, and a claim's lease (docs/idempotency.md).
// Read from the environment so the setting travels with the process, like the other operational knobs.

export interface IdempotencySettings {
  /** A key's answer is replayed this long after it was claimed; then it is forgotten (default 24 h). */
  retentionMs: number;
  /** Answers larger than this are not kept; their replay is 409 (default 8 MiB). */
  maxResponseBytes: number;
  /** A claimant that records no outcome within this long (renewed while it runs) is taken as dead (default 60 s). */
  leaseMs: number;
  /** How often the sweeper deletes forgotten bodies (default 10 min). */
  sweepIntervalMs: number;
}

export function idempotencySettingsFrom(env: NodeJS.ProcessEnv): IdempotencySettings {
  return {
    retentionMs: positive(env, 'GATEWAY_IDEMPOTENCY_RETENTION_SECONDS', 24 * 3600) * 1000,
    maxResponseBytes: positive(env, 'GATEWAY_IDEMPOTENCY_MAX_RESPONSE_BYTES', 8 * 1024 * 1024),
    leaseMs: positive(env, 'GATEWAY_IDEMPOTENCY_LEASE_SECONDS', 60) * 1000,
    sweepIntervalMs: positive(env, 'GATEWAY_IDEMPOTENCY_SWEEP_SECONDS', 600) * 1000,
  };
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got '${text}')`);
  return value;
}

/**
 * The key streams' `$maxAge` on a store that expires events (EventStoreDB/KurrentDB): the retention, which
 * the gateway times from the claim, plus a margin for the server's clock, which times `$maxAge` from each
 * event's write, being ahead of the gateway's. Past the retention the key is forgotten (key-state.ts)
 * whether its events are still there or not; the margin only keeps them readable until then.
 */
export const STREAM_MAX_AGE_MARGIN_SECONDS = 300;

export function keyStreamMaxAgeSeconds(settings: Pick<IdempotencySettings, 'retentionMs'>): number {
  return Math.ceil(settings.retentionMs / 1000) + STREAM_MAX_AGE_MARGIN_SECONDS;
}
