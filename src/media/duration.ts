// Durations are decimal strings so no binary float ever reaches a bill. Sample counts divide
// exactly; the quotient is rounded half-up to microseconds, finer than one sample at any rate used.
import { BigDecimal } from '../common/big-decimal';
import { PcmLayout } from './media.types';

const MICROSECOND_PLACES = 6;

export function secondsFromSamples(samples: number, sampleRate: number): string {
  if (!(sampleRate > 0)) throw new RangeError(`sample rate must be positive, got ${sampleRate}`);
  return BigDecimal.ofNumber(samples).dividedBy(sampleRate, MICROSECOND_PLACES, 'half-up').toFixed();
}

/** Normalises a decimal duration string (e.g. ffprobe's "1.000000" -> "1"). */
export function normaliseSeconds(text: string): string {
  return BigDecimal.parseScientific(text).roundTo(MICROSECOND_PLACES, 'half-up').toFixed();
}

const BYTES_PER_SAMPLE: Record<PcmLayout['sampleFormat'], number> = { pcm16: 2, pcm24: 3, pcm_f32: 4 };

/** Raw little-endian PCM has no header: duration follows from the byte count alone. Partial frames do not count. */
export function pcmDurationSeconds(byteLength: number, layout: PcmLayout): string {
  if (!Number.isInteger(layout.channels) || layout.channels < 1) throw new RangeError(`channels must be a positive integer, got ${layout.channels}`);
  const frameBytes = BYTES_PER_SAMPLE[layout.sampleFormat] * layout.channels;
  return secondsFromSamples(Math.floor(byteLength / frameBytes), layout.sampleRate);
}
