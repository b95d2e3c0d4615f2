// Measures audio the gateway relays from an upstream (speech, chat audio) for billing. Unlike
// input probing it is lenient: a stream cut short is billed for what was delivered.
import { ApiError } from '../common/api-error';
import { OutputAudioFormat, PcmLayout } from './media.types';
import { countDecodedSamples } from './audio-decode';
import { pcmDurationSeconds, secondsFromSamples } from './duration';
import { audioStreams, reasonSuffix, runFfprobe } from './ffprobe';
import { MediaOptions, PROBE_TIMEOUT_MS } from './media-options';
import { withMediaSource } from './media-source';
import { MediaError } from './media-error';
import { isFrameAddressable, looksLikeWav, parseWavHeader, wavDurationSeconds } from './wav-header';

/**
 * Seconds of audio in `bytes`, an exact decimal string. `pcm` needs its layout (the model's
 * output_defaults); WAV with uncompressed samples is read from its header, streamed WAV from the
 * data actually present; everything else is decoded and its samples counted.
 */
export async function measureAudioDuration(bytes: Buffer, format: OutputAudioFormat, pcm?: PcmLayout, options: MediaOptions = {}): Promise<string> {
  if (format === 'pcm') {
    if (!pcm) throw new TypeError('measuring pcm audio needs its sample rate, sample format and channels');
    return pcmDurationSeconds(bytes.length, pcm);
  }
  if (bytes.length === 0) return '0';
  const wavDuration = format === 'wav' ? pcmWavDuration(bytes) : null;
  return wavDuration ?? decodedDuration(bytes, format, options);
}

function pcmWavDuration(bytes: Buffer): string | null {
  if (!looksLikeWav(bytes)) return null;
  try {
    const info = parseWavHeader(bytes);
    return isFrameAddressable(info) ? wavDurationSeconds(info) : null;
  } catch {
    return null;
  }
}

async function decodedDuration(bytes: Buffer, format: OutputAudioFormat, options: MediaOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  try {
    return await withMediaSource(bytes, async (source) => {
      const report = await runFfprobe(source, { timeoutMs, work: options.work }).catch(() => null);
      const sampleRate = Number(report && audioStreams(report)[0]?.sample_rate);
      if (!(sampleRate > 0)) throw unmeasurable(format, ': no audio stream found');
      const decoded = await countDecodedSamples(source, timeoutMs, options.work);
      if (decoded.samples === 0) throw unmeasurable(format, reasonSuffix(decoded.errors));
      return secondsFromSamples(decoded.samples, sampleRate);
    });
  } catch (error) {
    // Bytes of no known container are the upstream's fault, not the client's.
    throw error instanceof MediaError ? unmeasurable(format, ': no recognised container') : error;
  }
}

function unmeasurable(format: OutputAudioFormat, reason: string): ApiError {
  return ApiError.upstream('upstream_audio_invalid', `The upstream's ${format} audio could not be measured${reason}`);
}
