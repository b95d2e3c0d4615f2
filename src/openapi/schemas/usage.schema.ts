// The spec's Usage vector as clients get it (specUsageOf, src/billing/client-usage.ts). The gateway
// always sends every field, so all are required and nothing else is allowed: usage.schema.spec.ts
// checks real vectors against this. An organization configured with `usage_format: openai` also gets
// OpenAI's token fields derived from the vector: ChatUsage and TranscriptionUsage describe that
// opt-in; the responses' own schemas say Usage, as the spec does. The request log shows the recorded vector (RecordedOutputUsage: tools also count
// web-search calls).
import { JsonSchema, constant, integer, number, object, orNull, ref } from '../json-schema';

const count = (description?: string): JsonSchema => ({ ...integer(0), default: 0, ...(description ? { description } : {}) });

/** Seconds or megapixels as an exact decimal string, so no float enters a sum. */
const decimal = (description: string): JsonSchema => ({
  type: 'string',
  pattern: '^[0-9]+(\\.[0-9]+)?$',
  default: '0',
  description,
});

/** The extension, documented where a response carries Usage. */
export const OPENAI_USAGE_OPT_IN = 'Opt-in extension: an organization configured with usage_format: openai (docs/clients.md) gets instead ';

const modalities = {
  text: ref('TextUsage'),
  audio: ref('AudioUsage'),
  image: ref('ImageUsage'),
  video: ref('VideoUsage'),
  voice: ref('VoiceUsage'),
};

const vector = (): Record<string, JsonSchema> => ({
  input: ref('InputUsage'),
  output: ref('OutputUsage'),
  cost_usd_micros: { ...orNull(integer()), description: 'Priced cost in USD micros (1e-6 USD); null when the request is not charged.' },
});

/** The opt-in shapes keep today's vector, web-search calls included ("exactly as before"). */
const openAiVector = (): Record<string, JsonSchema> => ({ ...vector(), output: ref('RecordedOutputUsage') });

const derived = 'OpenAI-compatible fields derived from the vector (docs/metering.md). Sent only to an organization configured with usage_format: openai; the default (spec) is Usage exactly.';

export const USAGE_SCHEMAS: Record<string, JsonSchema> = {
  Usage: object(vector(), { description: 'Measured per-modality usage and its priced cost.' }),
  ChatUsage: object(
    {
      ...openAiVector(),
      prompt_tokens: count('Every input token billed: text, cached, audio, image and video tokens.'),
      completion_tokens: count('Every output token billed: text, reasoning and audio tokens.'),
      total_tokens: count('prompt_tokens + completion_tokens.'),
      prompt_tokens_details: ref('PromptTokensDetails'),
      completion_tokens_details: ref('CompletionTokensDetails'),
    },
    { description: `The measured vector and its cost, with ${derived}` },
  ),
  PromptTokensDetails: object({ cached_tokens: count('input.text.cached_tokens.'), audio_tokens: count('Input audio tokens.') }),
  CompletionTokensDetails: object({ reasoning_tokens: count('output.text.reasoning_tokens.'), audio_tokens: count('Output audio tokens.') }),
  TranscriptionUsage: {
    oneOf: [ref('TranscriptionTokenUsage'), ref('TranscriptionDurationUsage')],
    description: 'tokens: json on a token-billed model; duration: verbose_json, or a model without audio tokens.',
  },
  TranscriptionTokenUsage: object(
    {
      ...openAiVector(),
      type: constant('tokens'),
      input_tokens: count('Audio tokens plus prompt text tokens billed.'),
      output_tokens: count('Output text tokens billed.'),
      total_tokens: count('input_tokens + output_tokens.'),
      input_token_details: ref('TranscriptionInputTokenDetails'),
    },
    { description: `The measured vector and its cost, with ${derived}` },
  ),
  TranscriptionInputTokenDetails: object({ audio_tokens: count(), text_tokens: count() }),
  TranscriptionDurationUsage: object(
    { ...openAiVector(), type: constant('duration'), seconds: { ...number(), minimum: 0, description: 'input.audio.duration as a number.' } },
    { description: `The measured vector and its cost, with ${derived}` },
  ),
  InputUsage: object(modalities),
  OutputUsage: object({ ...modalities, tools: ref('ToolUsage') }),
  TextUsage: object({
    tokens: count(),
    characters: count('The unit TTS bills input by; token modalities leave it 0.'),
    cached_tokens: count('Billed at the cached rate.'),
    reasoning_tokens: count(),
  }),
  AudioUsage: object({ duration: decimal('Seconds of audio; tokens derive from it.') }),
  ImageUsage: object({ count: count(), megapixels: decimal('Megapixels.'), tiles: count(), tokens: count() }),
  VideoUsage: object({ duration: decimal('Seconds of video.'), frames: count(), tokens: count() }),
  ToolUsage: object({ call_count: count(), tokens: count() }),
  RecordedOutputUsage: object({ ...modalities, tools: ref('RecordedToolUsage') }),
  RecordedToolUsage: object({
    call_count: count(),
    tokens: count(),
    web_search_calls: count('Web-search calls among call_count, priced with pricing.web_search.'),
  }),
  VoiceUsage: object({
    clone_count: count('Requests that cloned a voice from reference audio.'),
    design_count: count('Requests that designed a voice from a text description.'),
    reference_duration: decimal('Seconds of reference audio the clone was conditioned on.'),
  }),
};
