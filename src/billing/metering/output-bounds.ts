// Bounds on output the gateway counts itself but cannot make an upstream stay under (docs/metering.md,
// "Plausibility bounds"): images beyond the request's `n` and speech audio far longer than its input
// could be spoken in. Past a bound the bound is billed and the excess is recorded as a dispute, so a
// request's maximum cost is known before the upstream is called (and can be held).
import { BigDecimal } from '../../common/big-decimal';
import type { DisputedField } from './plausibility';

/**
 * Seconds of speech one input character can take at speed 1, generously: ordinary speech is about
 * 0.07 s a character (alphabetic) to 0.25 s (CJK), so 0.5 s is twice the slowest script.
 */
export const MAX_SPEECH_SECONDS_PER_CHARACTER = '0.5';
/** Leading and trailing silence, breaths and encoder padding a short input may carry. */
export const SPEECH_SLACK_SECONDS = '10';

export interface BoundedCount<T> {
  billed: T;
  dispute: DisputedField | null;
}

/** Images billed: those returned, at most the `n` asked for. */
export function boundImageCount(returned: number, requested: number): BoundedCount<number> {
  if (returned <= requested) return { billed: returned, dispute: null };
  return { billed: requested, dispute: { field: 'data', reported: String(returned), billed: requested, bound: `<= ${requested}`, reason: 'over_requested_count', severity: 'hard' } };
}

/**
 * The most audio `characters` of input can be billed for: (slack + characters x 0.5 s) / speed, up to a
 * whole second (a dispute's `billed` is a whole number).
 */
export function maxSpeechSeconds(characters: number, speed: number): string {
  const seconds = BigDecimal.parse(MAX_SPEECH_SECONDS_PER_CHARACTER).times(characters).plus(BigDecimal.parse(SPEECH_SLACK_SECONDS));
  return seconds.dividedBy(speed, 0, 'ceil').toFixed();
}

/** Output seconds billed: as measured, at most `bound`. */
export function boundSpeechSeconds(measured: string, bound: string): BoundedCount<string> {
  if (BigDecimal.parseScientific(measured).compare(BigDecimal.parseScientific(bound)) <= 0) return { billed: measured, dispute: null };
  return { billed: bound, dispute: { field: 'output.audio.duration', reported: measured, billed: Number(bound), bound: `<= ${bound}`, reason: 'over_input_bound', severity: 'hard' } };
}
