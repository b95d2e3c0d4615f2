// Per-modality metering of the media a request carried. Each meter derives tokens from the
// gateway's own measurement (boundary) and lets the upstream's report win only when the model's
// media profile says `metering: backend` and the upstream actually reported that modality.
import type { AudioPlaceholder, Metering, VisualPlaceholder } from '../../catalog/catalog.types';
import { BigDecimal } from '../../common/big-decimal';
import { sumDecimalTexts } from '../../common/decimal-text';
import type { ImageUsage, VideoUsage } from '../usage';
import { audioClipTokens } from './audio-tokens';
import type { MeasuredAudio, MeasuredImage, MeasuredVideo } from './measurement';
import { visualTokens } from './smart-resize';
import { copyWith } from '../../common/copy-with';
import { boundMediaTokens, type DisputedField } from './plausibility';

/** Tokens of one modality and whose count they are; `source` is null when the modality was absent. */
export interface MeteredTokens {
  tokens: number;
  source: Metering | null;
}

export interface MediaRule {
  metering: Metering;
  upstreamTokens: number | undefined;
  /** The upstream's field name, for a dispute record. */
  field?: string;
  /** Where a count over the plausibility bound is recorded (see plausibility.ts). */
  disputes?: DisputedField[];
}

/**
 * `measurable`: the gateway derived its own count (the model has a placeholder), so the upstream's
 * count can be bounded by it; without a placeholder there is nothing to bound against.
 */
export function chooseTokens(present: boolean, boundaryTokens: number, rule: MediaRule, measurable = true): MeteredTokens {
  if (!present) return { tokens: 0, source: null };
  if (rule.metering === 'backend' && rule.upstreamTokens !== undefined) {
    const tokens = measurable && rule.disputes
      ? boundMediaTokens(rule.field ?? 'media_tokens', rule.upstreamTokens, boundaryTokens, rule.disputes)
      : rule.upstreamTokens;
    return { tokens, source: tokens === rule.upstreamTokens ? 'backend' : 'boundary' };
  }
  return { tokens: boundaryTokens, source: 'boundary' };
}

export interface MeteredAudio extends MeteredTokens {
  duration: string;
}

export function meterAudio(
  clips: readonly MeasuredAudio[],
  placeholder: AudioPlaceholder | null | undefined,
  channels: number,
  rule: MediaRule,
): MeteredAudio {
  // Most requests carry no media: their answer needs no decimal arithmetic (about 1 µs a modality).
  if (clips.length === 0) return { duration: '0', tokens: 0, source: null };
  const boundary = placeholder
    ? clips.reduce((sum, clip) => sum + audioClipTokens(placeholder, clip.durationSeconds, channels), 0)
    : 0;
  const duration = sumDecimalTexts(clips.map((clip) => clip.durationSeconds));
  return { duration, ...chooseTokens(clips.length > 0, boundary, rule, Boolean(placeholder)) };
}

const ONE_PER_MILLION = BigDecimal.parse('0.000001');

export interface MeteredImages extends MeteredTokens {
  usage: ImageUsage;
}

export function meterImages(
  images: readonly MeasuredImage[],
  placeholder: VisualPlaceholder | null | undefined,
  rule: MediaRule,
): MeteredImages {
  if (images.length === 0) return { tokens: 0, source: null, usage: { count: 0, megapixels: '0', tiles: 0, tokens: 0 } };
  const tiles = placeholder
    ? images.reduce((sum, image) => sum + visualTokens(image.height, image.width, placeholder), 0)
    : 0;
  const chosen = chooseTokens(images.length > 0, tiles, rule, Boolean(placeholder));
  const pixels = images.reduce((sum, image) => sum + image.width * image.height, 0);
  const megapixels = BigDecimal.of(pixels).times(ONE_PER_MILLION).toFixed();
  return copyWith(chosen, { usage: { count: images.length, megapixels, tiles, tokens: chosen.tokens } });
}

export interface MeteredVideos extends MeteredTokens {
  usage: VideoUsage;
}

export function meterVideos(
  videos: readonly MeasuredVideo[],
  placeholder: VisualPlaceholder | null | undefined,
  rule: MediaRule,
): MeteredVideos {
  if (videos.length === 0) return { tokens: 0, source: null, usage: { duration: '0', frames: 0, tokens: 0 } };
  const boundary = placeholder
    ? videos.reduce((sum, video) => sum + video.frames * visualTokens(video.height, video.width, placeholder), 0)
    : 0;
  const chosen = chooseTokens(videos.length > 0, boundary, rule, Boolean(placeholder));
  const duration = sumDecimalTexts(videos.map((video) => video.durationSeconds));
  const frames = videos.reduce((sum, video) => sum + video.frames, 0);
  return copyWith(chosen, { usage: { duration, frames, tokens: chosen.tokens } });
}
