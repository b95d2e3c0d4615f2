// What the simulated transcriber "says" for the bursts it heard: the n-th word is the n-th
// NATO-alphabet word, segments break at long pauses, and every number follows from the audio.
import type { Burst } from './speech-bursts';

export const SIM_VOCABULARY = [
  'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', 'kilo', 'lima', 'mike',
  'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango', 'uniform', 'victor', 'whiskey', 'xray', 'yankee', 'zulu',
];

/** A pause this long (seconds) starts a new segment, as does a full segment. */
export const SEGMENT_PAUSE_SECONDS = 0.5;
export const SEGMENT_MAX_WORDS = 6;
/** Whisper decodes 30 s windows; `seek` is the window's offset in 10 ms frames. */
const WINDOW_SECONDS = 30;
const FIRST_TEXT_TOKEN = 1000;

export interface SimWord {
  word: string;
  start: number;
  end: number;
}

export interface SimSegment {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
  temperature: number;
  avg_logprob: number;
  compression_ratio: number;
  no_speech_prob: number;
}

export interface SimTranscript {
  text: string;
  words: SimWord[];
  segments: SimSegment[];
}

export function simulatedWords(bursts: readonly Burst[]): SimWord[] {
  return bursts.map((burst, index) => ({ word: SIM_VOCABULARY[index % SIM_VOCABULARY.length], start: burst.start, end: burst.end }));
}

function groupWords(words: readonly SimWord[]): SimWord[][] {
  const groups: SimWord[][] = [];
  for (const word of words) {
    const group = groups[groups.length - 1];
    const previous = group?.[group.length - 1];
    if (group && group.length < SEGMENT_MAX_WORDS && word.start - previous!.end < SEGMENT_PAUSE_SECONDS) group.push(word);
    else groups.push([word]);
  }
  return groups;
}

function segmentOf(words: SimWord[], id: number, temperature: number): SimSegment {
  const start = words[0].start;
  return {
    id,
    seek: Math.floor(start / WINDOW_SECONDS) * WINDOW_SECONDS * 100,
    start,
    end: words[words.length - 1].end,
    text: ` ${words.map((w) => w.word).join(' ')}`,
    tokens: words.map((w) => FIRST_TEXT_TOKEN + SIM_VOCABULARY.indexOf(w.word)),
    temperature,
    avg_logprob: -0.25,
    compression_ratio: 1.2,
    no_speech_prob: 0.01,
  };
}

export function simulatedTranscript(bursts: readonly Burst[], temperature: number): SimTranscript {
  const words = simulatedWords(bursts);
  const segments = groupWords(words).map((group, id) => segmentOf(group, id, temperature));
  return { text: segments.map((s) => s.text).join('').trim(), words, segments };
}
