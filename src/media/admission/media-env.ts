// The operator's media limits (environment, documented in docs/security.md "Media processing").
// A value that is not a whole number in range stops the start-up rather than running unbounded.
import type { ChildLimits } from './child-limits';
import type { MediaSlotLimits } from './media-slots';

export interface MediaEnv {
  slots: MediaSlotLimits;
  childLimits: ChildLimits;
  /** Largest width x height of an image or video frame that is decoded at all. */
  maxPixels: number;
}

export const DEFAULT_MEDIA_ENV: MediaEnv = {
  slots: { global: 4, perOrganization: 2, queueLength: 32, waitMs: 10_000 },
  childLimits: { memoryBytes: 1536 * 1024 * 1024, cpuSeconds: 120 },
  maxPixels: 40_000_000,
};

const MiB = 1024 * 1024;

export function readMediaEnv(env: NodeJS.ProcessEnv = process.env): MediaEnv {
  const d = DEFAULT_MEDIA_ENV;
  return {
    slots: {
      global: whole(env, 'GATEWAY_MEDIA_PROCESSES', d.slots.global, 1),
      perOrganization: whole(env, 'GATEWAY_MEDIA_PROCESSES_PER_ORG', d.slots.perOrganization, 1),
      queueLength: whole(env, 'GATEWAY_MEDIA_QUEUE', d.slots.queueLength, 0),
      waitMs: whole(env, 'GATEWAY_MEDIA_QUEUE_WAIT_MS', d.slots.waitMs, 0),
    },
    childLimits: {
      memoryBytes: whole(env, 'GATEWAY_MEDIA_MEMORY_MB', d.childLimits.memoryBytes / MiB, 64) * MiB,
      cpuSeconds: whole(env, 'GATEWAY_MEDIA_CPU_SECONDS', d.childLimits.cpuSeconds, 1),
    },
    maxPixels: whole(env, 'GATEWAY_MEDIA_MAX_PIXELS', d.maxPixels, 1),
  };
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be a whole number, at least ${min}; got '${text}'`);
  return value;
}
