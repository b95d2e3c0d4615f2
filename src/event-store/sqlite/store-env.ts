// GATEWAY_STORE_INLINE_COMMITS: whether the embedded store may commit on the main thread while its
// append worker is idle (inline-commit-policy.ts). On by default; `off` keeps every fsync in the worker,
// for a disk whose fsync is slow enough to matter on the event loop.
const OFF = new Set(['off', 'false', '0', 'no']);
const ON = new Set(['on', 'true', '1', 'yes', '']);

/** Anything but a known on/off word stops the start-up. */
export function readInlineCommits(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.GATEWAY_STORE_INLINE_COMMITS ?? '').trim().toLowerCase();
  if (!OFF.has(value) && !ON.has(value)) {
    throw new Error(`GATEWAY_STORE_INLINE_COMMITS must be 'on' or 'off'; got '${env.GATEWAY_STORE_INLINE_COMMITS}'`);
  }
  return !OFF.has(value);
}
