// The upstream's OpenAI-style usage, as sent: billing checks every count against the plausibility
// bounds (src/billing/metering/plausibility.ts), so a bad count is disputed there, not dropped here.
// vLLM may send details as null.
import type { ReportedUsage } from '../../billing/metering/measurement';
import type { UpstreamUsage } from '../chat.types';

export function upstreamReportOf(usage: UpstreamUsage | null | undefined): ReportedUsage | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  const prompt = usage.prompt_tokens_details;
  const completion = usage.completion_tokens_details;
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    cachedTokens: prompt?.cached_tokens,
    audioPromptTokens: prompt?.audio_tokens,
    reasoningTokens: completion?.reasoning_tokens,
    audioCompletionTokens: completion?.audio_tokens,
  };
}
