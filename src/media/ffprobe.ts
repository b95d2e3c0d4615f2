// ffprobe's JSON report (-show_format -show_streams), typed to the fields the library reads.
import { MediaError } from './media-error';
import { ffprobePath } from './media-binaries';
import { inputArgs, MediaSource } from './media-source';
import { runProcess } from './run-process';
import type { MediaWork } from './media-work';
import { sniffContainer } from './signature';

export interface FfprobeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  sample_rate?: string;
  channels?: number;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  nb_frames?: string;
  nb_read_frames?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
}

export interface FfprobeReport {
  format: { format_name: string; duration?: string; tags?: Record<string, string> };
  streams: FfprobeStream[];
  /** What ffprobe logged at error level; with countFrames this includes decode errors. */
  errors: string;
}

export interface FfprobeOptions {
  timeoutMs: number;
  /** Decode every frame (-count_frames): catches corrupt data and fills nb_read_frames. Without it only headers are read. */
  countFrames?: boolean;
  /** With countFrames: decode the first frame only (an image; an animated GIF's later frames are never sent on). */
  firstFrameOnly?: boolean;
  work?: MediaWork;
}

export async function runFfprobe(source: MediaSource, options: FfprobeOptions): Promise<FfprobeReport> {
  const args = ['-hide_banner', '-v', 'error', '-show_format', '-show_streams', '-of', 'json'];
  if (options.countFrames) args.push('-count_frames');
  if (options.countFrames && options.firstFrameOnly) args.push('-read_intervals', '%+#1');
  const run = await runProcess(ffprobePath(), [...args, ...inputArgs(source)], { stdin: source.stdin, timeoutMs: options.timeoutMs, work: options.work });
  const parsed = parseReport(run.stdout.toString('utf8'));
  if (run.exitCode !== 0 || !parsed) throw unreadable(source, run.stderr);
  return { ...parsed, errors: run.stderr };
}

function unreadable(source: MediaSource, log: string): MediaError {
  const known = sniffContainer(source.bytes);
  return known
    ? new MediaError('undecodable_media', `The ${known} data is damaged and could not be read${reasonSuffix(log)}`)
    : new MediaError('unrecognized_container', `The bytes are not a recognised media container${reasonSuffix(log)}`);
}

function parseReport(json: string): Omit<FfprobeReport, 'errors'> | null {
  try {
    const report = JSON.parse(json) as Partial<FfprobeReport>;
    return report.format?.format_name ? { format: report.format, streams: report.streams ?? [] } : null;
  } catch {
    return null;
  }
}

/** ": <first logged line>" for error messages, without ffmpeg's "[codec @ 0x...]" addresses or input names (temp paths). */
export function reasonSuffix(log: string): string {
  const firstLine = log.split('\n').find((line) => line.trim().length > 0);
  if (!firstLine) return '';
  return `: ${firstLine.replace(/ @ 0x[0-9a-f]+/g, '').replace(/^(fd:|pipe:\S*|\/\S+):\s*/, '').trim()}`;
}

/** Real video streams; cover art in mp3/m4a shows up as a one-frame "video" marked attached_pic. */
export function videoStreams(report: FfprobeReport): FfprobeStream[] {
  return report.streams.filter((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
}

export function audioStreams(report: FfprobeReport): FfprobeStream[] {
  return report.streams.filter((s) => s.codec_type === 'audio');
}
