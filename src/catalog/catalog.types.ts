// The model catalog as the operator declares it. Field names follow the spec's ListModelEntry
// (snake_case) so the public listing is the catalog entry minus the operator-only `upstream` part.

export type Price = string; // USD per unit, an exact decimal string (config numbers are normalised to text)

export interface UnitPrices {
  tokens?: Price | null;
  characters?: Price | null;
  cached_tokens?: Price | null;
  count?: Price | null;
}

export type PricedModality = 'text' | 'image' | 'audio' | 'video' | 'voice';

export type PricingSide = Partial<Record<PricedModality, UnitPrices>>;

export interface PricingMetadata {
  input: PricingSide;
  output: PricingSide;
  request?: Price | null;
  web_search?: Price | null;
  internal_reasoning?: Price | null;
  discount?: number | null;
}

export interface AudioPlaceholder {
  per_clip: number;
  tokens_per_second: number;
  rounding?: 'ceil';
}

export interface VisualPlaceholder {
  factor: number;
  image_min_pixels: number;
  image_max_pixels?: number;
  video_frames_per_second?: number;
  temporal_patch_size?: number;
  [extra: string]: unknown;
}

export interface ArchitectureMetadata {
  modality: string | null;
  input_modalities: string[];
  output_modalities: string[];
  tokenizer?: string | null;
  instruct_type?: string | null;
  chat_template?: { per_message: number; per_request: number } | null;
  audio_placeholder?: AudioPlaceholder | null;
  visual_placeholder?: VisualPlaceholder | null;
}

export type Metering = 'backend' | 'boundary';

export interface AudioProfile {
  accepts: { containers?: string[]; sample_rate?: [number, number] | null; channels?: number[] } | null;
  converts_to: { codec: string; container: string; sample_rate?: number | null; channels?: number | null } | null;
  metering?: Metering;
}

export interface ImageProfile {
  accepts: { formats?: string[]; max_width?: number | null; max_height?: number | null } | null;
  converts_to: { format: string; max_width?: number | null; max_height?: number | null } | null;
  metering?: Metering;
}

export interface VideoProfile {
  accepts: {
    containers?: string[];
    max_width?: number | null;
    max_height?: number | null;
    frame_rate?: [number, number] | null;
  } | null;
  converts_to: {
    video_codec: string;
    container: string;
    max_width?: number | null;
    max_height?: number | null;
    keep_audio?: boolean;
  } | null;
  metering?: Metering;
}

export interface MediaProfiles {
  audio?: AudioProfile | null;
  image?: ImageProfile | null;
  video?: VideoProfile | null;
}

/** What the public `GET /v1/models` entry carries (spec: ListModelEntry), minus the live `status`. */
export interface ListModelEntry {
  id: string;
  object?: 'model';
  created: number;
  owned_by: string;
  canonical_slug: string;
  name: string;
  description: string;
  context_length: number | null;
  architecture: ArchitectureMetadata;
  pricing: PricingMetadata;
  top_provider: { is_moderated: boolean; context_length?: number | null; max_completion_tokens?: number | null };
  default_parameters: Partial<Record<
    'temperature' | 'top_p' | 'top_k' | 'frequency_penalty' | 'presence_penalty' | 'repetition_penalty',
    number | null
  >>;
  supported_parameters?: string[];
  output_defaults?: { sampling_rate?: number; audio_format?: 'pcm16' | 'pcm24' | 'pcm_f32'; channels?: number };
  media_profiles?: MediaProfiles;
  expiration_date?: string | null;
  per_request_limits?: { prompt_tokens: number; completion_tokens: number } | null;
}

/** The capability a model serves; decides which endpoint accepts it. */
export type ModelKind = 'chat' | 'speech' | 'transcription' | 'image' | 'decision';

/** Operator-only: how the gateway reaches the model. Never served publicly. */
export interface UpstreamConfig {
  base_url: string;
  /**
   * Wire dialect of the model server: `vllm` (default; accepts `cache_salt` and
   * `stream_options.continuous_usage_stats`) or `openai` (neither; the salt goes as `prompt_cache_key`).
   */
  dialect?: 'vllm' | 'openai';
  api_key?: string | null;
  /** The model name the upstream expects, when it differs from the public id. */
  model?: string;
  timeout_ms: number;
  health_url?: string | null;
  cold_start_seconds: number;
  max_concurrency?: number | null;
  /** The fraction of `max_concurrency` one organization may hold (docs/model-status.md "Fair share"). */
  organization_share?: number;
  /** Speech: the most input characters one upstream request takes; longer input is sent in segments. */
  max_input_characters?: number | null;
  /**
   * Transcription: who produces speaker labels (docs/transcription.md, "Diarization modes"): the
   * `services.diarization` service (default), this upstream answering `response_format=diarized_json`
   * (OpenAI), or this upstream sent `speaker_labels=true` and labelling each word.
   */
  diarization?: 'service' | 'diarized_json' | 'speaker_labels';
}

/**
 * One place a model is served from (docs/routing.md). A model declares `deployments:`, or today's
 * `upstream:`, which becomes the single deployment `default`. `cost` is the operator's cost of goods per
 * unit, in the shape of `pricing`; omitted, the margin of a request served there is unknown.
 */
export interface DeploymentConfig {
  id: string;
  base_url: string;
  api_key?: string | null;
  health_url?: string | null;
  timeout_ms: number;
  max_concurrency?: number | null;
  cold_start_seconds: number;
  weight: number;
  labels?: Record<string, string>;
  cost?: PricingMetadata | null;
}

export interface VoiceConfig {
  /** Preset voice ids this model accepts (lowercase). */
  presets?: string[];
}

export interface CatalogModel extends ListModelEntry {
  kind: ModelKind;
  upstream: UpstreamConfig;
  /** At least one after loading (config-defaults.ts); read through deploymentsOf() (src/routing). */
  deployments?: DeploymentConfig[];
  voices?: VoiceConfig;
  /** Decision models: how many images one request may carry. */
  max_images_per_request?: number;
}

/** An alias such as `chorus` names several member models; requests route to one member. */
/** Listing fields an alias may declare for itself; each one declared replaces the one derived from the members (docs/models.md). */
export const ALIAS_LISTING_FIELDS = [
  'created', 'owned_by', 'canonical_slug', 'name', 'description', 'context_length', 'architecture', 'pricing', 'top_provider',
  'default_parameters', 'supported_parameters', 'output_defaults', 'media_profiles', 'expiration_date', 'per_request_limits',
] as const satisfies readonly (keyof ListModelEntry)[];

export type AliasListing = Partial<Pick<ListModelEntry, (typeof ALIAS_LISTING_FIELDS)[number]>>;

export interface ModelAlias extends AliasListing {
  id: string;
  members: string[];
}

export interface ServiceEndpoints {
  /** OpenAI-style `/v1/moderations` upstream for models with `top_provider.is_moderated`. */
  moderation?: { base_url: string; api_key?: string | null; model?: string; timeout_ms: number } | null;
  /** Diarization upstream for transcription speaker labels (JSON documented in docs/simulator.md). */
  diarization?: { base_url: string; api_key?: string | null; timeout_ms: number } | null;
}
