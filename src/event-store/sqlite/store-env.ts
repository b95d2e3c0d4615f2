// GATEWAY_STORE_INLINE_COMMITS: whether the embedded store may commit on the main thread while its
// append worker is idle (inline-commit-policy.ts). On by default; `off` keeps every fsync in the worker,
// for a disk whose fsync is slow enough to matter on the event loop.
import { onOffSwitch } from '../../common/on-off-switch';

export function readInlineCommits(env: NodeJS.ProcessEnv = process.env): boolean {
  return onOffSwitch(env, 'GATEWAY_STORE_INLINE_COMMITS');
}
