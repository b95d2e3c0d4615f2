// Merges diarizer speaker turns into transcript words: each word goes to the speaker whose turns
// overlap it for the longest time; a word no turn touches is explicitly unattributed (null).
import type { AttributedWord, SpeakerTurn, TimedSpan, TranscriptWord } from './transcript.types';

export interface LabelledTurn extends TimedSpan {
  /** The diarizer's own label, e.g. `SPEAKER_01`; its numbering is not the gateway's. */
  label: string;
}

/**
 * Numbers speakers from 0 in order of first appearance, so speaker 0 is whoever talks first
 * whatever label the diarizer gave them. Turns come back sorted by start time.
 */
export function indexSpeakers(turns: readonly LabelledTurn[]): SpeakerTurn[] {
  const sorted = [...turns].sort((a, b) => a.start - b.start || a.end - b.end);
  const indexOf = new Map<string, number>();
  return sorted.map((turn) => {
    if (!indexOf.has(turn.label)) indexOf.set(turn.label, indexOf.size);
    return { speaker: indexOf.get(turn.label)!, start: turn.start, end: turn.end };
  });
}

function overlapSeconds(word: TimedSpan, turn: TimedSpan): number {
  return Math.max(0, Math.min(word.end, turn.end) - Math.max(word.start, turn.start));
}

/** A zero-length word has no overlap to measure: the turn that contains its instant takes it. */
function covers(turn: TimedSpan, word: TimedSpan): boolean {
  return word.start === word.end ? turn.start <= word.start && word.start <= turn.end : overlapSeconds(word, turn) > 0;
}

/** Ties go to the lower speaker index so the result never depends on turn order. */
export function speakerOf(word: TimedSpan, turns: readonly SpeakerTurn[]): number | null {
  const overlapBySpeaker = new Map<number, number>();
  for (const turn of turns) {
    if (!covers(turn, word)) continue;
    overlapBySpeaker.set(turn.speaker, (overlapBySpeaker.get(turn.speaker) ?? 0) + overlapSeconds(word, turn));
  }
  let best: number | null = null;
  for (const [speaker, overlap] of overlapBySpeaker) {
    const bestOverlap = best === null ? -1 : overlapBySpeaker.get(best)!;
    if (overlap > bestOverlap || (overlap === bestOverlap && speaker < best!)) best = speaker;
  }
  return best;
}

export function attributeSpeakers(words: readonly TranscriptWord[], turns: readonly SpeakerTurn[]): AttributedWord[] {
  return words.map((word) => ({ ...word, speaker: speakerOf(word, turns) }));
}
