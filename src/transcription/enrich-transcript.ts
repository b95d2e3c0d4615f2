// Checks the timings the plan depends on and merges speaker turns into the words. Pure: the
// upstream calls happen before, the response shaping after.
import { findTimingProblem } from './timing-check';
import { attributeSpeakers } from './speaker-attribution';
import { timingEnrichmentFailed } from './transcription-errors';
import type { TranscriptionPlan } from './transcription-plan';
import type { AttributedWord, SpeakerTurn, TimedSpan, TranscriptSegment, TranscriptWord, UpstreamTranscript } from './transcript.types';

export interface EnrichedTranscript {
  text: string;
  segments: TranscriptSegment[];
  /** Present only when the plan returns words; attributed when diarization ran. */
  words?: TranscriptWord[] | AttributedWord[];
}

function requireTimings<T extends TimedSpan>(spans: T[] | undefined, label: string, audioSeconds: number): T[] {
  if (!spans) throw timingEnrichmentFailed(`the transcription upstream sent no ${label} timings`);
  const problem = findTimingProblem(spans, audioSeconds, label);
  if (problem) throw timingEnrichmentFailed(problem);
  return spans;
}

/** `turns` must be given when the plan diarizes (see diarization-turns.ts for their checks). */
export function enrichTranscript(
  plan: TranscriptionPlan,
  transcript: UpstreamTranscript,
  audioSeconds: number,
  turns?: SpeakerTurn[],
): EnrichedTranscript {
  const segments = plan.needsSegmentTimings ? requireTimings(transcript.segments, 'segment', audioSeconds) : [];
  if (!plan.needsWordTimings) return { text: transcript.text, segments };
  const words = requireTimings(transcript.words, 'word', audioSeconds);
  const attributed = plan.diarize ? attributeSpeakers(words, turns ?? []) : words;
  return { text: transcript.text, segments, words: plan.returnWords ? attributed : undefined };
}
