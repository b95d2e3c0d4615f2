// The spec's Usage vector (src/billing/usage.ts). The gateway always sends every field, so all are
// required and nothing else is allowed: usage.schema.spec.ts checks real vectors against this.
import { JsonSchema, integer, object, orNull, ref } from '../json-schema';

const count = (description?: string): JsonSchema => ({ ...integer(0), default: 0, ...(description ? { description } : {}) });

/** Seconds or megapixels as an exact decimal string, so no float enters a sum. */
const decimal = (description: string): JsonSchema => ({
  type: 'string',
  pattern: '^[0-9]+(\\.[0-9]+)?$',
  default: '0',
  description,
});

const modalities = {
  text: ref('TextUsage'),
  audio: ref('AudioUsage'),
  image: ref('ImageUsage'),
  video: ref('VideoUsage'),
  voice: ref('VoiceUsage'),
};

export const USAGE_SCHEMAS: Record<string, JsonSchema> = {
  Usage: object(
    {
      input: ref('InputUsage'),
      output: ref('OutputUsage'),
      cost_usd_micros: { ...orNull(integer()), description: 'Priced cost in USD micros (1e-6 USD); null when the request is not charged.' },
    },
    { description: 'Measured per-modality usage and its priced cost.' },
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
  ToolUsage: object({
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
