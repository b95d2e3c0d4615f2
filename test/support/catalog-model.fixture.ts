// A catalog entry for billing unit tests: a chat model taking text, image, audio and video, with
// round prices so expected costs can be worked out by hand. Tests override what they exercise.
import type { CatalogModel, PricingMetadata } from '../../src/catalog/catalog.types';

export const FIXTURE_PRICING: PricingMetadata = {
  input: {
    text: { tokens: '0.000001', cached_tokens: '0.0000005' },
    image: { tokens: '0.000002' },
    audio: { tokens: '0.00001' },
    video: { tokens: '0.000003' },
  },
  output: { text: { tokens: '0.000002' } },
};

export function fixtureModel(overrides: Partial<CatalogModel> = {}): CatalogModel {
  return {
    id: 'symphony-notes',
    created: 1_700_000_000,
    owned_by: 'gateway',
    canonical_slug: 'symphony-notes',
    name: 'Symphony Notes',
    description: 'billing fixture',
    context_length: 32_768,
    architecture: {
      modality: 'text+image+audio+video->text',
      input_modalities: ['text', 'image', 'audio', 'video'],
      output_modalities: ['text'],
      audio_placeholder: { per_clip: 2, tokens_per_second: 25, rounding: 'ceil' },
      visual_placeholder: { factor: 28, image_min_pixels: 4 * 28 * 28 },
    },
    pricing: FIXTURE_PRICING,
    top_provider: { is_moderated: false },
    default_parameters: {},
    kind: 'chat',
    upstream: { base_url: 'http://127.0.0.1:1', timeout_ms: 1000, cold_start_seconds: 0 },
    ...overrides,
  };
}
