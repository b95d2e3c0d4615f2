// The upstream's OpenAI-style usage, normalised for metering. vLLM may send details as null.
import type { UpstreamReport } from '../../billing/metering/measurement';
import { reportedTokenCount as count } from '../../billing/metering/reported-token-count';
import type { UpstreamUsage } from '../chat.types';

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
