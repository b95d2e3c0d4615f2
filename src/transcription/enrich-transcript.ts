// Checks the timings the plan depends on and merges speaker turns into the words. Pure: the
// upstream calls happen before, the response shaping after.
import { findTimingProblem } from './timing-check';
import { attributeSpeakers } from './speaker-attribution';
import { speakerEnrichmentFailed, timingEnrichmentFailed } from './transcription-errors';
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

/**
 * Where speakers come from when the plan diarizes: turns to overlap with the words (a diarization
 * service, or diarized segments), or the upstream's own label per word (one entry per word).
 */
export type SpeakerEvidence = SpeakerTurn[] | { perWord: (number | null)[] };

function attribute(words: TranscriptWord[], speakers: SpeakerEvidence | undefined): AttributedWord[] {
  if (speakers === undefined || Array.isArray(speakers)) return attributeSpeakers(words, speakers ?? []);
  if (speakers.perWord.length !== words.length) throw speakerEnrichmentFailed('the speaker labels do not match the words');
  return words.map((word, i) => ({ word: word.word, start: word.start, end: word.end, speaker: speakers.perWord[i] }));
}

/** `speakers` must be given when the plan diarizes (see diarization/ for their checks). */
export function enrichTranscript(
  plan: TranscriptionPlan,
  transcript: UpstreamTranscript,
  audioSeconds: number,
  speakers?: SpeakerEvidence,
): EnrichedTranscript {
  const segments = plan.needsSegmentTimings ? requireTimings(transcript.segments, 'segment', audioSeconds) : [];
  if (!plan.needsWordTimings) return { text: transcript.text, segments };
  const words = requireTimings(transcript.words, 'word', audioSeconds);
  const attributed = plan.diarize ? attribute(words, speakers) : words;
  return { text: transcript.text, segments, words: plan.returnWords ? attributed : undefined };
}
