// Video in two steps. The header read (ffprobe without decoding frames) gives the container, codec,
// frame size, rate, duration and the frame count the container declares: enough for every cheap
// check (pixel cap, profile, prompt size) before any frame is decoded. The decode check
// (-count_frames) then proves the file is whole and counts the real frames.
import { VIDEO_CONTAINERS, VideoContainer, VideoProbe } from './media.types';
import { matroskaDocType, videoContainerOf } from './container-mapping';
import { audioStreams, FfprobeReport, FfprobeStream, reasonSuffix, runFfprobe, videoStreams } from './ffprobe';
import { MediaError } from './media-error';
import { MediaOptions, PROBE_TIMEOUT_MS } from './media-options';
import { withMediaSource } from './media-source';
import { normaliseSeconds } from './duration';
import { assertWithinPixelCap } from './pixel-cap';

/** Header read and decode check. */
export async function probeVideo(bytes: Buffer, options: MediaOptions = {}): Promise<VideoProbe> {
  return verifyVideoDecodes(bytes, await readVideoHeader(bytes, options), options);
}

/** No frame decoded: `frameCount` is what the container declares (or duration x rate; 0 when it says neither). */
export function readVideoHeader(bytes: Buffer, options: MediaOptions = {}): Promise<VideoProbe> {
  return withMediaSource(bytes, async (source) => {
    const report = await runFfprobe(source, { timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS, work: options.work });
    const video = describeVideo(bytes, report);
    assertWithinPixelCap('video', video.width, video.height, options.work?.maxPixels);
    return { ...video, frameCount: declaredFrameCount(video.stream, video.frameRate, video.durationSeconds) };
  });
}

/** Decodes every frame: the probe with the real frame count, or 400 undecodable_media. */
export function verifyVideoDecodes(bytes: Buffer, header: VideoProbe, options: MediaOptions = {}): Promise<VideoProbe> {
  return withMediaSource(bytes, async (source) => {
    const report = await runFfprobe(source, { timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS, countFrames: true, work: options.work });
    return { ...header, frameCount: analyseVideo(bytes, report).frameCount };
  });
}

/** Needs a report taken with countFrames. */
export function analyseVideo(bytes: Buffer, report: FfprobeReport): VideoProbe {
  const { stream, ...video } = describeVideo(bytes, report);
  return { ...video, frameCount: decodedFrameCount(stream, report, video.container) };
}

function describeVideo(bytes: Buffer, report: FfprobeReport): Omit<VideoProbe, 'frameCount'> & { stream: FfprobeStream } {
  const stream = videoStreams(report)[0];
  if (!stream) throw new MediaError('not_video', `The media (${report.format.format_name}) has no video stream`);
  const container = videoContainerOf({
    formatName: report.format.format_name,
    majorBrand: report.format.tags?.major_brand,
    docType: matroskaDocType(bytes),
    codecs: report.streams.map((s) => s.codec_name ?? ''),
  });
  if (!container) {
    throw new MediaError('unrecognized_container', `Video in ${report.format.format_name} is not a supported container (${VIDEO_CONTAINERS.join(', ')})`);
  }
  if (!stream.width || !stream.height) throw new MediaError('undecodable_media', 'The video stream declares no frame size');
  const duration = report.format.duration ?? stream.duration;
  return {
    kind: 'video',
    stream,
    container,
    codec: stream.codec_name ?? 'unknown',
    width: stream.width,
    height: stream.height,
    frameRate: frameRateOf(stream),
    durationSeconds: duration && !Number.isNaN(Number(duration)) ? normaliseSeconds(duration) : undefined,
    hasAudio: audioStreams(report).length > 0,
  };
}

/** The sample table's count (mp4, mov, avi), else duration x rate (Matroska/WebM declare no count). */
export function declaredFrameCount(stream: Pick<FfprobeStream, 'nb_frames'>, frameRate: number | undefined, durationSeconds: string | undefined): number {
  const declared = Number(stream.nb_frames);
  if (Number.isSafeInteger(declared) && declared > 0) return declared;
  const estimated = Math.round(Number(durationSeconds) * (frameRate ?? NaN));
  return Number.isSafeInteger(estimated) && estimated > 0 ? estimated : 0;
}

/**
 * Decoded frames; logged errors or no frame at all mean damage. An mp4/mov sample table lists every
 * frame, and a file cut after its index decodes quietly short, so a clear shortfall there means
 * truncation (a frame or two of slack for edit lists). AVI indexes are too loose to compare.
 */
function decodedFrameCount(stream: FfprobeStream, report: FfprobeReport, container: VideoContainer): number {
  const decoded = Number(stream.nb_read_frames);
  if (report.errors || !(decoded >= 1)) {
    throw new MediaError('undecodable_media', `The video could not be decoded${reasonSuffix(report.errors) || ': no complete frame'}`);
  }
  const declared = Number(stream.nb_frames);
  const slack = Math.max(2, Math.ceil(declared * 0.02));
  if ((container === 'mp4' || container === 'mov') && declared - decoded > slack) {
    throw new MediaError('undecodable_media', `The video is truncated: it declares ${declared} frames but only ${decoded} decode`);
  }
  return decoded;
}

/** "30000/1001" -> 29.97...; the average rate first, the container's base rate otherwise. */
export function frameRateOf(stream: Pick<FfprobeStream, 'avg_frame_rate' | 'r_frame_rate'>): number | undefined {
  return parseRate(stream.avg_frame_rate) ?? parseRate(stream.r_frame_rate);
}

function parseRate(text: string | undefined): number | undefined {
  const [numerator, denominator] = (text ?? '').split('/').map(Number);
  const rate = numerator / (denominator ?? 1);
  return Number.isFinite(rate) && rate > 0 ? rate : undefined;
}
