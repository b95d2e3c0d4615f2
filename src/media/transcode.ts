// Transcoding with the bundled ffmpeg. Output always goes to a temp file so muxers can seek back
// to finish headers (WAV sizes, the mp4/m4a index moved to the front with +faststart); metadata
// is dropped and headers are bit-exact, so the same input gives the same bytes.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../common/api-error';
import { AudioProbe, VideoProbe } from './media.types';
import { AudioTarget, ImageTarget, VideoTarget } from './media-profile';
import { audioOutputArgs, imageOutputArgs, OutputArgs, videoOutputArgs } from './ffmpeg-targets';
import { fitWithin, Size } from './fit';
import { reasonSuffix } from './ffprobe';
import { ffmpegPath } from './media-binaries';
import { MediaOptions, TRANSCODE_TIMEOUT_MS } from './media-options';
import { inputArgs, withMediaSource, withTempDir } from './media-source';
import { runProcess } from './run-process';
import { identifyAudio } from './audio-probe';

export class TranscodeError extends ApiError {
  constructor(message: string) {
    super(500, 'media_transcode_failed', message, 'server_error');
  }
}

export async function transcodeAudio(bytes: Buffer, target: AudioTarget, options: MediaOptions = {}): Promise<Buffer> {
  return runTranscode(bytes, audioOutputArgs(target), options, `Transcoding audio to ${target.codec}/${target.container}`);
}

/** Converts the first frame, downscaled into max_width x max_height (aspect kept, never upscaled). */
export async function transcodeImage(bytes: Buffer, target: ImageTarget, source: Size, options: MediaOptions = {}): Promise<Buffer> {
  const size = fitWithin(source, target.max_width, target.max_height);
  return runTranscode(bytes, imageOutputArgs(target.format, size), options, `Converting the image to ${target.format}`);
}

export async function transcodeVideo(bytes: Buffer, target: VideoTarget, source: Pick<VideoProbe, 'width' | 'height' | 'hasAudio'>, options: MediaOptions = {}): Promise<Buffer> {
  const size = fitWithin(source, target.max_width, target.max_height, true);
  const output = videoOutputArgs(target, size, source.hasAudio);
  return runTranscode(bytes, output, options, `Transcoding video to ${target.video_codec}/${target.container}`);
}

export interface CaptioningAudio {
  bytes: Buffer;
  container: 'wav' | 'mp3';
  transcoded: boolean;
  /** The clip as the client sent it. */
  source: AudioProbe;
}

/**
 * Captioning takes WAV or MP3: those pass as sent; any other recognised audio becomes 16-bit PCM
 * WAV, at the source rate and channel count unless the model's profile names others.
 */
export async function toWavOrMp3(bytes: Buffer, options: MediaOptions & { sampleRate?: number; channels?: number } = {}): Promise<CaptioningAudio> {
  const source = await identifyAudio(bytes, options);
  if (source.container === 'wav' || source.container === 'mp3') return { bytes, container: source.container, transcoded: false, source };
  const target: AudioTarget = { codec: 'pcm_s16le', container: 'wav', sample_rate: options.sampleRate ?? null, channels: options.channels ?? null };
  return { bytes: await transcodeAudio(bytes, target, options), container: 'wav', transcoded: true, source };
}

function runTranscode(bytes: Buffer, output: OutputArgs, options: MediaOptions, what: string): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? TRANSCODE_TIMEOUT_MS;
  return withMediaSource(bytes, (source) =>
    withTempDir(async (dir) => {
      const outputPath = join(dir, `output.${output.extension}`);
      const args = ['-hide_banner', '-v', 'error', ...inputArgs(source), '-map_metadata', '-1', '-fflags', '+bitexact', ...output.args, '-y', outputPath];
      const run = await runProcess(ffmpegPath(), args, { stdin: source.stdin, timeoutMs, keepStdout: false, work: options.work });
      if (run.exitCode !== 0) throw new TranscodeError(`${what} failed${reasonSuffix(run.stderr)}`);
      return readFile(outputPath);
    }),
  );
}
