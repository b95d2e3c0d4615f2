// The JSON sent to the speech upstream (vLLM-Omni's /v1/audio/speech dialect). Client fields pass
// through, except those the gateway decides: which model, which container, how it streams, the
// language's upstream name, the reference audio as the model needs it, and its cache salt.
import type { SpeechPlan } from './speech-plan';

/** Fields that would change what comes back, so metering could no longer trust its assumptions. */
const GATEWAY_OWNED = ['model', 'response_format', 'stream_format', 'stream', 'sample_rate', 'language', 'ref_audio', 'cache_salt'];

export interface UpstreamReference {
  /** `data:` URL of the reference audio after any transcoding. */
  dataUrl: string;
  cacheSalt: string;
}

export function upstreamSpeechBody(request: Record<string, unknown>, plan: SpeechPlan, reference: UpstreamReference | null): Record<string, unknown> {
  const passthrough = Object.entries(request).filter(([key, value]) => !GATEWAY_OWNED.includes(key) && value !== null && value !== undefined);
  const decided: Record<string, unknown> = {
    model: plan.model.upstream.model ?? plan.model.id,
    response_format: plan.format ?? undefined,
    // The gateway always takes raw audio and builds SSE events itself, so the done event is its own.
    stream_format: plan.delivery === 'buffered' ? undefined : 'audio',
    language: plan.language ?? undefined,
    ref_audio: reference?.dataUrl,
    cache_salt: reference ? reference.cacheSalt : request.cache_salt ?? undefined,
  };
  const chosen = Object.entries(decided).filter(([, value]) => value !== undefined);
  return Object.fromEntries([...passthrough, ...chosen]);
}
