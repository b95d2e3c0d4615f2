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
