// The spec's Usage vector. Durations and megapixels are decimal strings so no float ever enters a sum.
import { copyWith } from '../common/copy-with';

export interface TextUsage {
  tokens: number;
  characters: number;
  cached_tokens: number;
  reasoning_tokens: number;
}

export interface AudioUsage {
  duration: string;
}

export interface ImageUsage {
  count: number;
  megapixels: string;
  tiles: number;
  tokens: number;
}

export interface VideoUsage {
  duration: string;
  frames: number;
  tokens: number;
}

export interface ToolUsage {
  call_count: number;
  tokens: number;
  /** Web-search tool calls among call_count, priced with `pricing.web_search`. */
  web_search_calls: number;
}

/** Voice work beyond plain synthesis (see docs/metering.md). */
export interface VoiceUsage {
  /** Requests that cloned a voice from reference audio. */
  clone_count: number;
  /** Requests that designed a voice from a text description. */
  design_count: number;
  /** Seconds of reference audio the clone was conditioned on. */
  reference_duration: string;
}

export interface InputUsage {
  text: TextUsage;
  audio: AudioUsage;
  image: ImageUsage;
  video: VideoUsage;
  voice: VoiceUsage;
}

export interface OutputUsage extends InputUsage {
  tools: ToolUsage;
}

export interface Usage {
  input: InputUsage;
  output: OutputUsage;
  cost_usd_micros: number | null;
}

export const emptyText = (): TextUsage => ({ tokens: 0, characters: 0, cached_tokens: 0, reasoning_tokens: 0 });

export function emptyInputUsage(): InputUsage {
  return {
    text: emptyText(),
    audio: { duration: '0' },
    image: { count: 0, megapixels: '0', tiles: 0, tokens: 0 },
    video: { duration: '0', frames: 0, tokens: 0 },
    voice: { clone_count: 0, design_count: 0, reference_duration: '0' },
  };
}

export function emptyOutputUsage(): OutputUsage {
  return copyWith(emptyInputUsage(), { tools: { call_count: 0, tokens: 0, web_search_calls: 0 } });
}
