// Pure translation of media_profiles targets into ffmpeg output arguments. Only encoders present in
// the bundled ffmpeg 4.x build are listed; an unknown name is an operator configuration error.
import { AudioTarget, VideoTarget } from './media-profile';
import { ImageFormat } from './media.types';
import { Size } from './fit';

export class UnsupportedTargetError extends Error {}

interface Output {
  muxer: string;
  extension: string;
  flags?: string[];
}

const FASTSTART = ['-movflags', '+faststart'];

const AUDIO_ENCODERS: Record<string, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-q:a', '2'],
  aac: ['-c:a', 'aac', '-b:a', '128k'],
  opus: ['-c:a', 'libopus', '-b:a', '96k'],
  vorbis: ['-c:a', 'libvorbis', '-q:a', '5'],
  flac: ['-c:a', 'flac'],
  alac: ['-c:a', 'alac'],
};

const AUDIO_OUTPUTS: Record<string, Output> = {
  wav: { muxer: 'wav', extension: 'wav' },
  mp3: { muxer: 'mp3', extension: 'mp3' },
  flac: { muxer: 'flac', extension: 'flac' },
  ogg: { muxer: 'ogg', extension: 'ogg' },
  m4a: { muxer: 'ipod', extension: 'm4a', flags: FASTSTART },
  aac: { muxer: 'adts', extension: 'aac' },
  aiff: { muxer: 'aiff', extension: 'aiff' },
  webm: { muxer: 'webm', extension: 'webm' },
};

const IMAGE_OUTPUTS: Record<ImageFormat, { codec: string[]; muxer: string; extension: string }> = {
  png: { codec: ['-c:v', 'png'], muxer: 'image2', extension: 'png' },
  jpeg: { codec: ['-c:v', 'mjpeg', '-q:v', '2', '-pix_fmt', 'yuvj444p'], muxer: 'image2', extension: 'jpg' },
  gif: { codec: ['-c:v', 'gif'], muxer: 'gif', extension: 'gif' },
  webp: { codec: ['-c:v', 'libwebp', '-quality', '90'], muxer: 'webp', extension: 'webp' },
};

const VIDEO_ENCODERS: Record<string, string[]> = {
  h264: ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
  hevc: ['-c:v', 'libx265', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
  vp8: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M'],
  vp9: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M'],
  mpeg4: ['-c:v', 'mpeg4', '-q:v', '3'],
};
const VIDEO_ALIASES: Record<string, string> = { avc: 'h264', libx264: 'h264', h265: 'hevc', libx265: 'hevc', libvpx: 'vp8', 'libvpx-vp9': 'vp9' };

const VIDEO_OUTPUTS: Record<string, Output & { audio: string[] }> = {
  mp4: { muxer: 'mp4', extension: 'mp4', flags: FASTSTART, audio: ['-c:a', 'aac'] },
  mov: { muxer: 'mov', extension: 'mov', flags: FASTSTART, audio: ['-c:a', 'aac'] },
  webm: { muxer: 'webm', extension: 'webm', audio: ['-c:a', 'libopus'] },
  mkv: { muxer: 'matroska', extension: 'mkv', audio: ['-c:a', 'libopus'] },
  avi: { muxer: 'avi', extension: 'avi', audio: ['-c:a', 'libmp3lame'] },
};

export interface OutputArgs {
  args: string[];
  extension: string;
}

/** pcm_* names go to ffmpeg as they are (pcm_s16le, pcm_s24le, pcm_f32le, pcm_s16be for aiff...). */
export function audioOutputArgs(target: AudioTarget): OutputArgs {
  const encoder = /^pcm_[a-z0-9]+$/.test(target.codec) ? ['-c:a', target.codec] : AUDIO_ENCODERS[target.codec];
  const output = AUDIO_OUTPUTS[target.container];
  if (!encoder) throw new UnsupportedTargetError(`Audio target codec ${target.codec} is not supported (${Object.keys(AUDIO_ENCODERS).join(', ')}, pcm_*)`);
  if (!output) throw new UnsupportedTargetError(`Audio target container ${target.container} is not supported (${Object.keys(AUDIO_OUTPUTS).join(', ')})`);
  const rate = target.sample_rate ? ['-ar', String(target.sample_rate)] : [];
  const channels = target.channels ? ['-ac', String(target.channels)] : [];
  return { args: ['-map', '0:a:0', '-vn', ...encoder, ...rate, ...channels, ...(output.flags ?? []), '-f', output.muxer], extension: output.extension };
}

/** The first frame only: animated input becomes a still. */
export function imageOutputArgs(format: string, size: Size): OutputArgs {
  const output = IMAGE_OUTPUTS[(format === 'jpg' ? 'jpeg' : format) as ImageFormat];
  if (!output) throw new UnsupportedTargetError(`Image target format ${format} is not supported (${Object.keys(IMAGE_OUTPUTS).join(', ')})`);
  const scale = ['-vf', `scale=${size.width}:${size.height}`];
  return { args: ['-map', '0:v:0', '-frames:v', '1', ...scale, ...output.codec, '-f', output.muxer], extension: output.extension };
}

export function videoOutputArgs(target: VideoTarget, size: Size, sourceHasAudio: boolean): OutputArgs {
  const codec = VIDEO_ALIASES[target.video_codec] ?? target.video_codec;
  const encoder = VIDEO_ENCODERS[codec];
  const output = VIDEO_OUTPUTS[target.container];
  if (!encoder) throw new UnsupportedTargetError(`Video target codec ${target.video_codec} is not supported (${Object.keys(VIDEO_ENCODERS).join(', ')})`);
  if (!output) throw new UnsupportedTargetError(`Video target container ${target.container} is not supported (${Object.keys(VIDEO_OUTPUTS).join(', ')})`);
  const keepAudio = target.keep_audio !== false && sourceHasAudio;
  const audio = keepAudio ? ['-map', '0:a:0', ...output.audio] : ['-an'];
  const scale = ['-vf', `scale=${size.width}:${size.height}`];
  return { args: ['-map', '0:v:0', ...scale, ...encoder, ...audio, ...(output.flags ?? []), '-f', output.muxer], extension: output.extension };
}
