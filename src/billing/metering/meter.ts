// Turns what a handler measured into the spec's Usage vector plus the audio token counts pricing
// needs (the public vector carries audio as a duration only).
import type { CatalogModel, MediaProfiles, Metering } from '../../catalog/catalog.types';
import { emptyInputUsage, emptyOutputUsage, type InputUsage, type OutputUsage } from '../usage';
import { toDecimalText } from '../../common/decimal-text';
import type { Measurement } from './measurement';
import { type MediaRule, type MeteredTokens, meterAudio, meterImages, meterVideos } from './media-metering';
import { meterInputText, meterOutputText } from './text-metering';
import { type DisputedField, settleDroppedCounts } from './plausibility';

export interface AudioTokens {
  input: number;
  output: number;
}

export interface MeteredUsage {
  input: InputUsage;
  output: OutputUsage;
  /** `backend` when the upstream's count won for at least one media modality of this request. */
  metering: Metering;
  /** Billable audio tokens per side (placeholder-derived or upstream-reported, see docs/metering.md). */
  audioTokens: AudioTokens;
}

/** `disputes`: when given, upstream media counts over their plausibility bound are recorded there and not billed. */
export function meter(model: CatalogModel, m: Measurement, disputes?: DisputedField[]): MeteredUsage {
  const profiles = model.media_profiles ?? {};
  const { audio_placeholder: audioPlaceholder, visual_placeholder: visualPlaceholder } = model.architecture;
  const report = m.upstream ?? {};
  const audioIn = meterAudio(m.input.audio ?? [], audioPlaceholder, 1, rule(profiles, 'audio', report.audioPromptTokens, 'prompt_tokens_details.audio_tokens', disputes));
  const images = meterImages(m.input.images ?? [], visualPlaceholder, rule(profiles, 'image', report.imagePromptTokens, 'prompt_tokens_details.image_tokens', disputes));
  const videos = meterVideos(m.input.videos ?? [], visualPlaceholder, rule(profiles, 'video', report.videoPromptTokens, 'prompt_tokens_details.video_tokens', disputes));
  const outputChannels = model.output_defaults?.channels ?? 1;
  const audioOutRule = rule(profiles, 'audio', report.audioCompletionTokens, 'completion_tokens_details.audio_tokens', disputes);
  const audioOut = meterAudio(m.output.audio ?? [], audioPlaceholder, outputChannels, audioOutRule);

  const input = emptyInputUsage();
  input.text = meterInputText(m, audioIn.tokens + images.tokens + videos.tokens);
  input.audio = { duration: audioIn.duration };
  input.image = images.usage;
  input.video = videos.usage;
  input.voice = meterVoice(m);

  const output = emptyOutputUsage();
  output.text = meterOutputText(m, audioOut.tokens);
  output.audio = { duration: audioOut.duration };
  output.image.count = m.output.imageCount ?? 0;
  output.tools = { call_count: m.output.toolCalls ?? 0, tokens: 0, web_search_calls: m.output.webSearchCalls ?? 0 };

  if (disputes && disputes.length > 0) {
    settleDroppedCounts(disputes, {
      'prompt_tokens_details.audio_tokens': audioIn.tokens,
      'completion_tokens_details.audio_tokens': audioOut.tokens,
      'prompt_tokens_details.image_tokens': images.tokens,
      'prompt_tokens_details.video_tokens': videos.tokens,
    });
  }
  return {
    input,
    output,
    metering: overallSource([audioIn, images, videos, audioOut]),
    audioTokens: { input: audioIn.tokens, output: audioOut.tokens },
  };
}

function rule(
  profiles: MediaProfiles,
  kind: keyof MediaProfiles,
  upstreamTokens: number | undefined,
  field: string,
  disputes: DisputedField[] | undefined,
): MediaRule {
  return { metering: profiles[kind]?.metering ?? 'boundary', upstreamTokens, field, disputes };
}

function meterVoice(m: Measurement): InputUsage['voice'] {
  const voice = m.input.voice;
  if (!voice) return { clone_count: 0, design_count: 0, reference_duration: '0' };
  return {
    clone_count: voice?.clone ? 1 : 0,
    design_count: voice?.design ? 1 : 0,
    reference_duration: toDecimalText(voice?.referenceSeconds ?? '0'),
  };
}

function overallSource(modalities: readonly MeteredTokens[]): Metering {
  return modalities.some((modality) => modality.source === 'backend') ? 'backend' : 'boundary';
}
