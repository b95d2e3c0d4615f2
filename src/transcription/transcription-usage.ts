// The usage a transcription client reads (json and verbose_json): the spec's Usage, or with OpenAI's
// transcription usage fields when its organization's usage_format is openai (src/billing/client-usage.ts).
import type { AudioTokens } from '../billing/metering/meter';
import type { Usage } from '../billing/usage';
import { specUsageOf, type UsageFormat } from '../billing/client-usage';

/** Transcription json and verbose_json. */
export function transcriptionClientUsage(usage: Usage, audioTokens: AudioTokens, kind: TranscriptionUsageKind, format: UsageFormat | undefined): Usage | TranscriptionUsage {
  return format === 'openai' ? transcriptionUsageOf(usage, audioTokens, kind) : specUsageOf(usage);
}

/** OpenAI's transcription usage for token-billed models (gpt-4o-transcribe style). */
export interface TranscriptionTokenUsageFields {
  type: 'tokens';
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_token_details: { audio_tokens: number; text_tokens: number };
}

/** OpenAI's transcription usage for duration-billed models (whisper-1 style, and every verbose_json). */
export interface TranscriptionDurationUsageFields {
  type: 'duration';
  seconds: number;
}

export type TranscriptionUsage = Usage & (TranscriptionTokenUsageFields | TranscriptionDurationUsageFields);
export type TranscriptionUsageKind = 'tokens' | 'duration';

/**
 * OpenAI reports tokens for token-billed models on `json`, and duration on `verbose_json` (its verbose
 * shape only defines duration usage: the SDKs' TranscriptionVerbose types reject anything else). A model
 * whose audio derives tokens (`audio_placeholder`) is token-billed here.
 */
export function transcriptionUsageKind(format: string, hasAudioPlaceholder: boolean): TranscriptionUsageKind {
  return format !== 'verbose_json' && hasAudioPlaceholder ? 'tokens' : 'duration';
}

/** Input tokens are the audio tokens billed plus any prompt text tokens; output tokens the text billed. */
export function transcriptionUsageOf(usage: Usage, audioTokens: AudioTokens, kind: TranscriptionUsageKind): TranscriptionUsage {
  const { input, output } = usage;
  if (kind === 'duration') {
    // Display seconds: the exact decimal string stays in input.audio.duration.
    return { input, output, cost_usd_micros: usage.cost_usd_micros, type: 'duration', seconds: Number(input.audio.duration) };
  }
  const text = input.text.tokens + input.text.cached_tokens;
  const inputTokens = audioTokens.input + text;
  const outputTokens = output.text.tokens + output.text.reasoning_tokens;
  return {
    input,
    output,
    cost_usd_micros: usage.cost_usd_micros,
    type: 'tokens',
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    input_token_details: { audio_tokens: audioTokens.input, text_tokens: text },
  };
}
