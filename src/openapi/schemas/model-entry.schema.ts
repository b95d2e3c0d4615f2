// The spec's model listing (GET /v1/models): ListModelEntry and its metadata objects, as served by
// src/models/list-models from the catalog (src/catalog/catalog.types.ts).
import { JsonSchema, arrayOf, boolean, constant, integer, number, object, orNull, ref, string } from '../json-schema';

/** USD per unit as string, integer, number or null; the branches are disjoint so oneOf holds. */
const usd = (): JsonSchema => ({
  oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'number', not: { type: 'integer' } }, { type: 'null' }],
  description: 'USD per unit; the gateway serves exact decimal strings.',
});

const between = (minimum: number, maximum: number): JsonSchema => orNull({ type: 'number', minimum, maximum });

const placeholderCount = (description: string): JsonSchema => ({ ...integer(0), description });

export const MODEL_ENTRY_SCHEMAS: Record<string, JsonSchema> = {
  ListModelsResponse: object({ object: constant('list'), data: arrayOf(ref('ListModelEntry')) }),
  ListModelEntry: object(
    {
      id: string('Model id used in requests.'),
      object: constant('model'),
      created: { ...integer(), description: 'Unix timestamp.' },
      owned_by: string(),
      canonical_slug: string('Stable lowercase slug.'),
      name: string(),
      description: string(),
      context_length: orNull(integer()),
      architecture: ref('ArchitectureMetadata'),
      pricing: ref('PricingMetadata'),
      top_provider: ref('TopProviderMetadata'),
      default_parameters: ref('DefaultParameters'),
      supported_parameters: arrayOf(ref('SupportedParameter')),
      output_defaults: ref('OutputDefaults'),
      media_profiles: { ...ref('MediaProfiles'), description: 'Defaults to all-rejected.' },
      expiration_date: orNull({ type: 'string', format: 'date' }),
      per_request_limits: orNull(ref('PerRequestLimits')),
      status: { ...orNull({ type: 'string', enum: ['warm', 'cold'] }), description: 'Omitted when live discovery is unavailable.' },
    },
    {
      optional: ['object', 'supported_parameters', 'output_defaults', 'media_profiles', 'expiration_date', 'per_request_limits', 'status'],
      additional: true,
    },
  ),
  ArchitectureMetadata: object(
    {
      modality: { ...orNull(string()), description: 'A compact input-to-output expression, e.g. text+image->text.' },
      input_modalities: arrayOf(ref('InputModality')),
      output_modalities: arrayOf(ref('OutputModality')),
      tokenizer: orNull(ref('ModelGroup')),
      instruct_type: orNull(ref('InstructType')),
      chat_template: orNull(object({ per_message: integer(0), per_request: integer(0) })),
      audio_placeholder: orNull(
        object(
          {
            per_clip: placeholderCount('Tokens added per clip.'),
            tokens_per_second: { type: 'number', exclusiveMinimum: 0 },
            rounding: { ...constant('ceil'), default: 'ceil' },
          },
          { optional: ['rounding'] },
        ),
      ),
      visual_placeholder: orNull(
        object(
          {
            factor: { ...integer(1), description: 'Side-length quantum: each resized side is a multiple of it.' },
            image_min_pixels: integer(1),
          },
          { additional: true },
        ),
      ),
    },
    { optional: ['tokenizer', 'instruct_type', 'chat_template', 'audio_placeholder', 'visual_placeholder'], additional: true },
  ),
  PricingMetadata: object(
    {
      input: ref('PricingSideMetadata'),
      output: ref('PricingSideMetadata'),
      request: usd(),
      web_search: usd(),
      internal_reasoning: usd(),
      discount: { ...orNull(number()), description: 'A multiplier on the calculated price.' },
    },
    { optional: ['request', 'web_search', 'internal_reasoning', 'discount'] },
  ),
  PricingSideMetadata: object(
    Object.fromEntries(['text', 'image', 'audio', 'video', 'voice'].map((kind) => [kind, ref('UnitPrices')])),
    { optional: 'all' },
  ),
  UnitPrices: object(
    { tokens: usd(), characters: usd(), cached_tokens: usd(), count: usd() },
    { optional: 'all' },
  ),
  TopProviderMetadata: object(
    { is_moderated: boolean(), context_length: orNull(integer()), max_completion_tokens: orNull(integer()) },
    { optional: ['context_length', 'max_completion_tokens'] },
  ),
  PerRequestLimits: object({ prompt_tokens: integer(), completion_tokens: integer() }),
  DefaultParameters: object(
    {
      temperature: between(0, 2),
      top_p: between(0, 1),
      top_k: orNull(integer(0)),
      frequency_penalty: between(-2, 2),
      presence_penalty: between(-2, 2),
      repetition_penalty: between(0, 2),
    },
    { optional: 'all' },
  ),
  OutputDefaults: object(
    {
      sampling_rate: { ...integer(1), description: 'Hz.' },
      audio_format: ref('AudioOutputFormat'),
      channels: { ...integer(1), description: 'Audio is billed as mono when the model emits audio and this is unset.' },
    },
    { optional: 'all' },
  ),
};
