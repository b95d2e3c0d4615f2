// Durations are decimal strings so no binary float ever reaches a bill. Sample counts divide
// exactly; the quotient is rounded half-up to microseconds, finer than one sample at any rate used.
import Decimal from 'decimal.js';
import { PcmLayout } from './media.types';

const MICROSECOND_PLACES = 6;

export function secondsFromSamples(samples: number, sampleRate: number): string {
  if (!(sampleRate > 0)) throw new RangeError(`sample rate must be positive, got ${sampleRate}`);
  return new Decimal(samples).div(sampleRate).toDecimalPlaces(MICROSECOND_PLACES, Decimal.ROUND_HALF_UP).toString();
}

/** Normalises a decimal duration string (e.g. ffprobe's "1.000000" -> "1"). */
export function normaliseSeconds(text: string): string {
  return new Decimal(text).toDecimalPlaces(MICROSECOND_PLACES, Decimal.ROUND_HALF_UP).toString();
}

const BYTES_PER_SAMPLE: Record<PcmLayout['sampleFormat'], number> = { pcm16: 2, pcm24: 3, pcm_f32: 4 };

/** Raw little-endian PCM has no header: duration follows from the byte count alone. Partial frames do not count. */
export function pcmDurationSeconds(byteLength: number, layout: PcmLayout): string {
  if (!Number.isInteger(layout.channels) || layout.channels < 1) throw new RangeError(`channels must be a positive integer, got ${layout.channels}`);
  const frameBytes = BYTES_PER_SAMPLE[layout.sampleFormat] * layout.channels;
  return secondsFromSamples(Math.floor(byteLength / frameBytes), layout.sampleRate);
}
