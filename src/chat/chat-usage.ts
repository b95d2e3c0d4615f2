// The usage a chat client reads (JSON and the final stream chunk): the spec's Usage, or with OpenAI's
// CompletionUsage fields when its organization's usage_format is openai (src/billing/client-usage.ts).
import type { AudioTokens } from '../billing/metering/meter';
import type { Usage } from '../billing/usage';
import { specUsageOf, type UsageFormat } from '../billing/client-usage';

/** Chat JSON and the final stream chunk. */
export function chatClientUsage(usage: Usage, audioTokens: AudioTokens, format: UsageFormat | undefined): Usage | ChatUsage {
  return format === 'openai' ? chatUsageOf(usage, audioTokens) : specUsageOf(usage);
}

/** OpenAI's CompletionUsage (chat completions and the final stream chunk). */
export interface CompletionUsageFields {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: { reasoning_tokens: number; audio_tokens: number };
}

export type ChatUsage = Usage & CompletionUsageFields;

/**
 * Prompt tokens are every input token the vector bills (text, cached, audio, image, video: cached
 * tokens are part of the prompt, as OpenAI counts them); completion tokens are output text,
 * reasoning and audio tokens. `audioTokens` are meter()'s exact per-side counts, since the vector
 * carries audio as a duration only. One literal with a fixed key order: one hidden class.
 */
export function chatUsageOf(usage: Usage, audioTokens: AudioTokens): ChatUsage {
  const { input, output } = usage;
  const cached = input.text.cached_tokens;
  const prompt = input.text.tokens + cached + audioTokens.input + input.image.tokens + input.video.tokens;
  const reasoning = output.text.reasoning_tokens;
  const completion = output.text.tokens + reasoning + audioTokens.output + output.tools.tokens;
  return {
    input,
    output,
    cost_usd_micros: usage.cost_usd_micros,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: audioTokens.input },
    completion_tokens_details: { reasoning_tokens: reasoning, audio_tokens: audioTokens.output },
  };
}
