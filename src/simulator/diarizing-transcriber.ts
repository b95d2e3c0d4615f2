// The simulated transcriber when it diarizes itself (a model the gateway configures with
// `upstream.diarization`): the same words as simulated-transcript.ts, with the simulated diarizer's
// speakers (simulated-turns.ts). Two wire shapes, both in docs/simulator.md ("Transcription").
import type { Burst } from './speech-bursts';
import { labelOf, MIN_TURN_SECONDS } from './simulated-turns';
import type { SimWord } from './simulated-transcript';

/** A word too short for a turn has no speaker of its own. */
function speakerOfBurst(burst: Burst, numSpeakers: number): string | null {
  return burst.end - burst.start >= MIN_TURN_SECONDS ? labelOf(burst, numSpeakers) : null;
}

/** vLLM-style `speaker_labels=true`: each verbose_json word carries its label, or null. */
export function wordsWithSpeakers(words: readonly SimWord[], bursts: readonly Burst[], numSpeakers: number) {
  return words.map((word, i) => ({ ...word, speaker: speakerOfBurst(bursts[i], numSpeakers) }));
}

export interface DiarizedSegment {
  type: 'transcript.text.segment';
  id: string;
  start: number;
  end: number;
  text: string;
  speaker: string;
}


/**
 * OpenAI's `diarized_json` segments: consecutive words of one speaker form a segment; a word too short
 * for a turn joins the segment before it (the first one, the segment after it), as every segment has
 * a speaker in that format.
 */
export function diarizedSegments(words: readonly SimWord[], bursts: readonly Burst[], numSpeakers: number): DiarizedSegment[] {
  const labels = bursts.map((burst) => speakerOfBurst(burst, numSpeakers));
  const firstLabel = labels.find((label) => label !== null) ?? 'SPEAKER_00';
  const segments: DiarizedSegment[] = [];
  // OpenAI names speakers A, B, ... in order of appearance.
  const letters = new Map<string, string>();
  const openAiLabel = (label: string) => letters.get(label) ?? (letters.set(label, String.fromCharCode(65 + letters.size)), letters.get(label)!);
  let current = firstLabel;
  words.forEach((word, i) => {
    current = labels[i] ?? current;
    const last = segments[segments.length - 1];
    if (last && last.speaker === openAiLabel(current)) {
      last.end = word.end;
      last.text += ` ${word.word}`;
      return;
    }
    segments.push({ type: 'transcript.text.segment', id: `seg_${segments.length}`, start: word.start, end: word.end, text: word.word, speaker: openAiLabel(current) });
  });
  return segments;
}
