// Identifies audio from its bytes: ffprobe names the container, then a full decode proves the
// clip plays to the end and counts its samples, which gives the exact duration.
import { BigDecimal } from '../common/big-decimal';
import { AUDIO_CONTAINERS, AudioContainer, AudioProbe } from './media.types';
import { audioContainerOf, matroskaDocType } from './container-mapping';
import { audioStreams, FfprobeReport, FfprobeStream, reasonSuffix, runFfprobe, videoStreams } from './ffprobe';
import { countDecodedSamples } from './audio-decode';
import { MediaError } from './media-error';
import { MediaOptions, PROBE_TIMEOUT_MS } from './media-options';
import { MediaSource, withMediaSource } from './media-source';
import type { MediaWork } from './media-work';
import { isWavTruncated, looksLikeWav, parseWavHeader } from './wav-header';
import { normaliseSeconds, secondsFromSamples } from './duration';

/** Identifies and measures an audio clip; throws MediaError (400) for anything that is not playable audio. */
export function identifyAudio(bytes: Buffer, options: MediaOptions = {}): Promise<AudioProbe> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  return withMediaSource(bytes, async (source) => {
    const report = await runFfprobe(source, { timeoutMs, work: options.work });
    return analyseAudio(source, report, timeoutMs, options.work);
  });
}

export async function analyseAudio(source: MediaSource, report: FfprobeReport, timeoutMs: number, work?: MediaWork): Promise<AudioProbe> {
  const { bytes } = source;
  const stream = requireAudioOnly(report);
  const container = audioContainerOf({
    formatName: report.format.format_name,
    majorBrand: report.format.tags?.major_brand,
    docType: matroskaDocType(bytes),
    codecs: report.streams.map((s) => s.codec_name ?? ''),
  });
  if (!container) {
    throw new MediaError('unrecognized_container', `Audio in ${report.format.format_name} is not a supported container (${AUDIO_CONTAINERS.join(', ')})`);
  }
  if (container === 'wav') rejectTruncatedWav(bytes);
  const sampleRate = positiveNumber(stream.sample_rate);
  if (!sampleRate) throw new MediaError('undecodable_media', 'The audio stream declares no sample rate');
  const samples = await decodedSamples(source, timeoutMs, work);
  const durationSeconds = secondsFromSamples(samples, sampleRate);
  rejectShortfall(container, report.format.duration, durationSeconds);
  return { kind: 'audio', container, codec: stream.codec_name ?? 'unknown', durationSeconds, sampleRate, channels: stream.channels || undefined };
}

function requireAudioOnly(report: FfprobeReport): FfprobeStream {
  const video = videoStreams(report)[0];
  if (video) throw new MediaError('not_audio', `The media is ${describeVisual(report.format.format_name, video)}, not audio`);
  const audio = audioStreams(report)[0];
  if (!audio) throw new MediaError('not_audio', `The media (${report.format.format_name}) has no audio stream`);
  return audio;
}

/** RIFF WAV only: RF64/BW64 also demux as "wav" and are left to the decoder. */
/** ffprobe reads images through "<format>_pipe" demuxers (and gif) as one-frame video. */
function describeVisual(formatName: string, video: FfprobeStream): string {
  const image = /^(\w+)_pipe$/.exec(formatName)?.[1] ?? (formatName === 'gif' ? 'gif' : null);
  return image ? `an image (${image})` : `a video (${formatName}, ${video.codec_name} video)`;
}

function rejectTruncatedWav(bytes: Buffer): void {
  if (!looksLikeWav(bytes)) return;
  try {
    const info = parseWavHeader(bytes);
    if (isWavTruncated(info)) {
      throw new MediaError('undecodable_media', `The WAV file is truncated: its data chunk declares ${info.declaredDataBytes} bytes but ${info.availableDataBytes} are present`);
    }
  } catch (error) {
    if (error instanceof MediaError) throw error;
    throw new MediaError('undecodable_media', `The WAV header is invalid: ${(error as Error).message}`);
  }
}

/** Any logged decode error means damage: ffmpeg skips bad frames and carries on otherwise. */
async function decodedSamples(source: MediaSource, timeoutMs: number, work?: MediaWork): Promise<number> {
  const decoded = await countDecodedSamples(source, timeoutMs, work);
  if (decoded.exitCode !== 0 || decoded.errors) {
    throw new MediaError('undecodable_media', `The audio could not be decoded${reasonSuffix(decoded.errors)}`);
  }
  if (decoded.samples === 0) throw new MediaError('undecodable_media', 'The audio decodes to no samples');
  return decoded.samples;
}

/**
 * A container that declares its length in a header (Xing mp3, aiff, flac, mp4, webm) but decodes
 * markedly shorter was cut off: some decoders stop quietly at the cut. Codec priming and padding
 * account for small gaps, hence the tolerance. ADTS aac declares nothing; wav is checked by header.
 */
const SHORTFALL_TOLERANCE_SECONDS = BigDecimal.parse('0.25');
const SHORTFALL_TOLERANCE_RATIO = BigDecimal.parse('0.02');

function rejectShortfall(container: AudioContainer, declared: string | undefined, decoded: string): void {
  if (container === 'aac' || container === 'wav' || !declared || Number.isNaN(Number(declared))) return;
  const declaredSeconds = BigDecimal.parseScientific(declared);
  const byRatio = declaredSeconds.times(SHORTFALL_TOLERANCE_RATIO);
  const tolerance = byRatio.compare(SHORTFALL_TOLERANCE_SECONDS) > 0 ? byRatio : SHORTFALL_TOLERANCE_SECONDS;
  if (BigDecimal.parseScientific(decoded).compare(declaredSeconds.minus(tolerance)) < 0) {
    throw new MediaError('undecodable_media', `The ${container} file is truncated: it declares ${normaliseSeconds(declared)} s but only ${decoded} s decode`);
  }
}

function positiveNumber(text: string | undefined): number | undefined {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
