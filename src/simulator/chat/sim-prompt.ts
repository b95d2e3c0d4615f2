// How many prompt tokens the simulated chat model counts: a ChatML template (4 per message, 3 per
// request), text through the simulated tokenizer, and media through the placeholder rules of a
// Qwen2-style processor (audio: 2 + ceil(25/s); images and sampled video frames: smart resize).
import imageSize from 'image-size';
import { audioClipTokens } from '../../billing/metering/audio-tokens';
import { visualTokens } from '../../billing/metering/smart-resize';
import { identifyAudio, probeVideo } from '../../media';
import { countTokens } from './sim-tokens';

export interface SimMessage {
  role?: string;
  content?: unknown;
}

interface SimPart {
  type?: string;
  text?: string;
  input_audio?: { data?: string };
  audio_url?: { url?: string };
  image_url?: { url?: string };
  video_url?: { url?: string };
}

export const SIM_TEMPLATE = { perMessage: 4, perRequest: 3 };
export const SIM_AUDIO_PLACEHOLDER = { per_clip: 2, tokens_per_second: 25, rounding: 'ceil' as const };
export const SIM_VISUAL_PLACEHOLDER = { factor: 28, image_min_pixels: 3136, image_max_pixels: 1003520 };
const VIDEO_SAMPLING_FPS = 2;

export interface PromptCount {
  tokens: number;
  /** Durations (seconds) of the audio clips the prompt carried, in order. */
  audioSeconds: string[];
  /** Text of the user messages, joined: what the simulated reply echoes. */
  userText: string;
}

export async function countPrompt(messages: readonly SimMessage[]): Promise<PromptCount> {
  let tokens = SIM_TEMPLATE.perRequest;
  const audioSeconds: string[] = [];
  const userText: string[] = [];
  for (const message of messages) {
    tokens += SIM_TEMPLATE.perMessage;
    for (const part of partsOf(message.content)) {
      if (part.type === 'text' && typeof part.text === 'string') {
        tokens += countTokens(part.text);
        if (message.role === 'user') userText.push(part.text);
      } else {
        const media = await mediaTokens(part);
        tokens += media.tokens;
        if (media.audioSeconds) audioSeconds.push(media.audioSeconds);
      }
    }
  }
  return { tokens, audioSeconds, userText: userText.join(' ') };
}

function partsOf(content: unknown): SimPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as SimPart[]) : [];
}

const dataUrlBytes = (url: string | undefined): Buffer => Buffer.from((url ?? '').replace(/^data:[^,]*,/, ''), 'base64');

async function mediaTokens(part: SimPart): Promise<{ tokens: number; audioSeconds?: string }> {
  if (part.type === 'input_audio' || part.type === 'audio_url') {
    const bytes = part.input_audio ? Buffer.from(part.input_audio.data ?? '', 'base64') : dataUrlBytes(part.audio_url?.url);
    const { durationSeconds } = await identifyAudio(bytes);
    return { tokens: audioClipTokens(SIM_AUDIO_PLACEHOLDER, durationSeconds), audioSeconds: durationSeconds };
  }
  if (part.type === 'image_url') {
    const size = imageSize(dataUrlBytes(part.image_url?.url));
    return { tokens: visualTokens(size.height ?? 0, size.width ?? 0, SIM_VISUAL_PLACEHOLDER) };
  }
  if (part.type === 'video_url') {
    const video = await probeVideo(dataUrlBytes(part.video_url?.url));
    const frames = Math.min(video.frameCount, Math.max(1, Math.ceil(Number(video.durationSeconds ?? 0) * VIDEO_SAMPLING_FPS)));
    return { tokens: frames * visualTokens(video.height, video.width, SIM_VISUAL_PLACEHOLDER) };
  }
  return { tokens: 0 };
}
