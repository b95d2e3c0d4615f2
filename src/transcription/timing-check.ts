// Word and segment times are only usable when they lie inside the audio and run forwards; anything
// else means the upstream's timing enrichment failed (502), never something to pass on to clients.
import type { TimedSpan } from './transcript.types';

/**
 * Slack past the measured end of the audio: Whisper-style timestamps are quantised to 20 ms and
 * lossy codecs pad a few milliseconds, so an end a little past the decoded duration is not an error.
 */
export const TIMING_TOLERANCE_SECONDS = 0.05;

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Describes the first inconsistent span (`label` names it, e.g. "word"), or null when all are fine. */
export function findTimingProblem(spans: readonly TimedSpan[], audioSeconds: number, label: string): string | null {
  const limit = audioSeconds + TIMING_TOLERANCE_SECONDS;
  for (let index = 0; index < spans.length; index++) {
    const { start, end } = spans[index];
    const name = `${label} ${index}`;
    if (!isTime(start) || !isTime(end)) return `${name} has no numeric start and end`;
    if (start < 0 || end > limit) return `${name} (${start}-${end} s) lies outside the ${audioSeconds} s of audio`;
    if (end < start) return `${name} ends (${end} s) before it starts (${start} s)`;
    const previous = spans[index - 1];
    if (previous && (start < previous.start || end < previous.end)) {
      return `${name} (${start}-${end} s) runs backwards from the previous one (${previous.start}-${previous.end} s)`;
    }
  }
  return null;
}
