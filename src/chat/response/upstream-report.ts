// The upstream's OpenAI-style usage, normalised for metering. vLLM may send details as null.
import type { UpstreamReport } from '../../billing/metering/measurement';
import type { UpstreamUsage } from '../chat.types';

/** A token count is a whole number; anything else counts as not reported, so the gateway's own count stands in. */
const count = (value: number | null | undefined): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

export function upstreamReportOf(usage: UpstreamUsage | null | undefined): UpstreamReport | undefined {
  if (!usage || count(usage.prompt_tokens) === undefined) return undefined;
  return {
    promptTokens: count(usage.prompt_tokens),
    completionTokens: count(usage.completion_tokens),
    cachedTokens: count(usage.prompt_tokens_details?.cached_tokens),
    audioPromptTokens: count(usage.prompt_tokens_details?.audio_tokens),
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens),
    audioCompletionTokens: count(usage.completion_tokens_details?.audio_tokens),
  };
}
