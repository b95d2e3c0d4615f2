// What one request asks for, decided once from its (already type-checked) options: which parts the
// response carries, which timings the upstream must supply, and whether diarization runs.
import { speakerLabelsRequireVerboseJson, speakerLabelsRequireWordTimestamps } from './transcription-errors';
import type { TimestampGranularity, TranscriptionFormat } from './transcript.types';

export interface TranscriptionOptions {
  format: TranscriptionFormat;
  /** undefined when the request sent no granularity list (not the same as an empty one). */
  granularities?: readonly TimestampGranularity[];
  speakerLabels: boolean;
  numSpeakers?: number;
  language?: string;
}

export interface TranscriptionPlan {
  format: TranscriptionFormat;
  /** Echoed in verbose_json only because the client sent it (a hint, not a detection). */
  language?: string;
  /** verbose_json `words`: present unless a granularity list leaves `word` out. */
  returnWords: boolean;
  diarize: boolean;
  /** Passed to the diarizer; only meaningful when diarize is true. */
  numSpeakers?: number;
  /** The upstream must supply word timings: they are returned or speakers are merged into them. */
  needsWordTimings: boolean;
  /** Segment timings feed verbose_json `segments` and every SRT/WebVTT cue. */
  needsSegmentTimings: boolean;
}

/** Applies the spec's cross-field rules; throws the 400 for speaker labels asked for the wrong way. */
export function planTranscription(options: TranscriptionOptions): TranscriptionPlan {
  const verbose = options.format === 'verbose_json';
  const wordsListed = options.granularities === undefined || options.granularities.includes('word');
  if (options.speakerLabels && !verbose) throw speakerLabelsRequireVerboseJson();
  if (options.speakerLabels && !wordsListed) throw speakerLabelsRequireWordTimestamps();
  const returnWords = verbose && wordsListed;
  return {
    format: options.format,
    language: options.language,
    returnWords,
    diarize: options.speakerLabels,
    numSpeakers: options.speakerLabels ? options.numSpeakers : undefined,
    needsWordTimings: returnWords || options.speakerLabels,
    needsSegmentTimings: verbose || options.format === 'srt' || options.format === 'vtt',
  };
}
