// The `usage` a client reads. By default exactly the spec's Usage (input, output, cost_usd_micros and
// nothing else, nested keys included). An organization configured with `usage_format: openai` also
// gets OpenAI's token fields, read off the billed vector and sent next to it, so clients built for
// OpenAI (the SDKs, the Vercel AI SDK, LangChain, LiteLLM) see token counts. Those fields are derived
// from the vector, never from the upstream's report, so what the client reads and what the events
// record cannot disagree (docs/metering.md, "OpenAI-compatible usage").
import type { AudioTokens } from './metering/meter';
import type { Usage } from './usage';

/** How an organization's responses carry usage: the spec's vector only, or with OpenAI's token fields. */
export const USAGE_FORMATS = ['spec', 'openai'] as const;
export type UsageFormat = (typeof USAGE_FORMATS)[number];
export const DEFAULT_USAGE_FORMAT: UsageFormat = 'spec';

/**
 * The spec's Usage as a client sees it: `output.tools` carries the spec's `call_count` and `tokens`
 * only (the events keep `web_search_calls`, which the price of web search reads).
 */
export function specUsageOf(usage: Usage): Usage {
  const { input, output } = usage;
  const tools = { call_count: output.tools.call_count, tokens: output.tools.tokens };
  return {
    input,
    output: { text: output.text, audio: output.audio, image: output.image, video: output.video, voice: output.voice, tools } as Usage['output'],
    cost_usd_micros: usage.cost_usd_micros,
  };
}

/** Chat JSON and the final stream chunk. */
export function chatClientUsage(usage: Usage, audioTokens: AudioTokens, format: UsageFormat | undefined): Usage | ChatUsage {
  return format === 'openai' ? chatUsageOf(usage, audioTokens) : specUsageOf(usage);
}

/** Transcription json and verbose_json. */
export function transcriptionClientUsage(usage: Usage, audioTokens: AudioTokens, kind: TranscriptionUsageKind, format: UsageFormat | undefined): Usage | TranscriptionUsage {
  return format === 'openai' ? transcriptionUsageOf(usage, audioTokens, kind) : specUsageOf(usage);
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
