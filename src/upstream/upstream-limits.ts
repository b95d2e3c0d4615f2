// How much of an upstream's answer the gateway will hold. A hostile or broken upstream could
// otherwise answer with an endless body or an SSE line that never ends, and the gateway would buffer
// it whole (a 700 MB line took RSS to 944 MiB). Both are configurable (README, configuration).
import { ApiError } from '../common/api-error';

export interface UpstreamLimits {
  /** Largest non-streamed answer read into memory (JSON, audio, images). */
  maxBodyBytes: number;
  /** Largest single server-sent event (its data lines together) of a streamed answer. */
  maxEventBytes: number;
}

const MiB = 1024 * 1024;

/** 64 MiB holds the largest legitimate answer (ten 2048x2048 PNGs in base64 are ~56 MiB); 4 MiB per event. */
export const DEFAULT_UPSTREAM_LIMITS: UpstreamLimits = { maxBodyBytes: 64 * MiB, maxEventBytes: 4 * MiB };

export function upstreamLimitsFrom(env: NodeJS.ProcessEnv): UpstreamLimits {
  return {
    maxBodyBytes: positiveBytes(env, 'GATEWAY_UPSTREAM_MAX_BODY_BYTES', DEFAULT_UPSTREAM_LIMITS.maxBodyBytes),
    maxEventBytes: positiveBytes(env, 'GATEWAY_UPSTREAM_MAX_EVENT_BYTES', DEFAULT_UPSTREAM_LIMITS.maxEventBytes),
  };
}

function positiveBytes(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d*$/.test(raw.trim()) || !Number.isSafeInteger(Number(raw))) throw new Error(`${name} must be a positive integer of bytes, got '${raw}'`);
  return Number(raw);
}

export function upstreamTooLarge(modelId: string, what: string, limitBytes: number): ApiError {
  return ApiError.upstream('upstream_response_too_large', `The model '${modelId}' sent ${what} larger than the gateway accepts (${limitBytes} bytes).`);
}

export function upstreamProtocolError(modelId: string, expected: string, contentType: string | undefined): ApiError {
  return ApiError.upstream(
    'upstream_protocol_error',
    `The model '${modelId}' answered with Content-Type '${contentType ?? '(none)'}' where ${expected} was expected.`,
  );
}
