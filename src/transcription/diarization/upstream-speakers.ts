// Reads speaker labels from a transcription upstream that diarizes itself (catalog
// `upstream.diarization`, docs/transcription.md "Diarization modes"). The answer is untrusted: labels,
// times and sizes are checked, and anything unusable is a speaker-enrichment failure (502).
import { TIMING_TOLERANCE_SECONDS } from '../timing-check';
import { speakerEnrichmentFailed } from '../transcription-errors';
import type { TranscriptSegment, TranscriptWord, UpstreamTranscript } from '../transcript.types';

/** Longer labels are not speaker names but garbage; more speakers than this is not a conversation. */
export const MAX_SPEAKER_LABEL_CHARS = 128;
export const MAX_DISTINCT_SPEAKERS = 64;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function labelOf(value: unknown, where: string): string {
  const ok = (typeof value === 'string' && value.length > 0 && value.length <= MAX_SPEAKER_LABEL_CHARS) || Number.isSafeInteger(value);
  if (!ok) throw speakerEnrichmentFailed(`${where} has no usable speaker label`);
  return String(value);
}

/** The gateway's speaker indices: from 0 in order of first appearance (labels in time order), bounded. */
function numberLabels(labels: (string | null)[]): (number | null)[] {
  const indexOf = new Map<string, number>();
  const numbered = labels.map((label) => {
    if (label === null) return null;
    if (!indexOf.has(label)) indexOf.set(label, indexOf.size);
    return indexOf.get(label)!;
  });
  if (indexOf.size > MAX_DISTINCT_SPEAKERS) throw speakerEnrichmentFailed(`the upstream named ${indexOf.size} speakers (at most ${MAX_DISTINCT_SPEAKERS})`);
  return numbered;
}

export interface DiarizedTranscript {
  transcript: UpstreamTranscript;
  /** The speaker of each word: the speaker of the segment it came from. */
  speakers: { perWord: number[] };
}

/** Each word of a segment gets a share of the segment's span in proportion to its length. */
function estimatedWords(text: string, start: number, end: number): TranscriptWord[] {
  const tokens = text.split(/\s+/).filter((token) => token.length > 0);
  const totalChars = tokens.reduce((sum, token) => sum + token.length, 0);
  // Rounded to the millisecond inside the segment; the ends are the segment's own times.
  const at = (chars: number) => {
    if (chars === 0 || chars === totalChars) return chars === 0 ? start : end;
    return Math.min(end, Math.max(start, Math.round((start + ((end - start) * chars) / totalChars) * 1000) / 1000));
  };
  let chars = 0;
  return tokens.map((word) => {
    const wordStart = at(chars);
    chars += word.length;
    return { word, start: wordStart, end: at(chars) };
  });
}

function readDiarizedSegment(entry: unknown, index: number, audioSeconds: number): { segment: TranscriptSegment; label: string } {
  const where = `diarized segment ${index}`;
  if (!isObject(entry)) throw speakerEnrichmentFailed(`${where} is not an object`);
  const label = labelOf(entry.speaker, where);
  const { start, end, text } = entry;
  if (typeof text !== 'string') throw speakerEnrichmentFailed(`${where} has no text`);
  if (!isTime(start) || !isTime(end) || start < 0 || end < start || end > audioSeconds + TIMING_TOLERANCE_SECONDS) {
    throw speakerEnrichmentFailed(`${where} (${String(start)}-${String(end)} s) does not lie within the ${audioSeconds} s of audio`);
  }
  return { segment: { ...entry, text, start, end }, label };
}

/**
 * OpenAI's `diarized_json` (gpt-4o-transcribe-diarize): `{text, segments: [{speaker, start, end, text}]}`
 * and no word timings. Segments become the transcript's segments with the gateway's speaker index; words
 * are the segments' words with estimated times, each with its segment's speaker.
 */
export function readDiarizedJson(body: Json, base: UpstreamTranscript, audioSeconds: number): DiarizedTranscript {
  if (!Array.isArray(body.segments)) throw speakerEnrichmentFailed('the diarized answer has no `segments` list');
  const read = body.segments.map((entry, index) => readDiarizedSegment(entry, index, audioSeconds));
  const ordered = read.sort((a, b) => a.segment.start - b.segment.start || a.segment.end - b.segment.end);
  const speakers = numberLabels(ordered.map((r) => r.label));
  // Every segment has a label, so every index is a number.
  const segments = ordered.map(({ segment }, i) => ({ ...segment, speaker: speakers[i]! }));
  const words: TranscriptWord[] = [];
  const perWord: number[] = [];
  segments.forEach((segment) => {
    for (const word of estimatedWords(segment.text, segment.start, segment.end)) {
      words.push(word);
      perWord.push(segment.speaker);
    }
  });
  return { transcript: { text: base.text, segments, words, reportedAudioTokens: base.reportedAudioTokens }, speakers: { perWord } };
}

/**
 * A verbose_json whose words carry the upstream's own `speaker` labels (sent `speaker_labels=true`).
 * A word with no label (absent or null) is uncovered; an answer with no label at all ignored the flag.
 */
export function readWordSpeakers(words: unknown): (number | null)[] {
  if (!Array.isArray(words)) throw speakerEnrichmentFailed('the transcription upstream sent no words to carry speaker labels');
  const labels = words.map((entry: unknown, index) => {
    const speaker = isObject(entry) ? entry.speaker : undefined;
    return speaker === undefined || speaker === null ? null : labelOf(speaker, `word ${index}`);
  });
  if (words.length > 0 && labels.every((label) => label === null) && words.every((w) => !isObject(w) || !('speaker' in w))) {
    throw speakerEnrichmentFailed('the transcription upstream ignored speaker_labels (no word has a `speaker` field)');
  }
  return numberLabels(labels);
}
