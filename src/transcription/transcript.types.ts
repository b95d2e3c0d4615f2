// The transcript as the gateway handles it between the upstreams and the client: times are
// seconds as the upstream reports them (display values, never summed into a bill).

export const TRANSCRIPTION_FORMATS = ['json', 'verbose_json', 'text', 'srt', 'vtt'] as const;
export type TranscriptionFormat = (typeof TRANSCRIPTION_FORMATS)[number];

export const TIMESTAMP_GRANULARITIES = ['word', 'segment'] as const;
export type TimestampGranularity = (typeof TIMESTAMP_GRANULARITIES)[number];

export interface TimedSpan {
  start: number;
  end: number;
}

export interface TranscriptWord extends TimedSpan {
  word: string;
}

/** A word after diarization: `null` means diarization ran but no speaker turn covers the word. */
export interface AttributedWord extends TranscriptWord {
  speaker: number | null;
}

/** A segment keeps every field the upstream sent (id, seek, tokens, avg_logprob, ...). */
export interface TranscriptSegment extends TimedSpan {
  text: string;
  [field: string]: unknown;
}

/** What the transcription upstream answered, read from its verbose_json body. */
export interface UpstreamTranscript {
  text: string;
  words?: TranscriptWord[];
  segments?: TranscriptSegment[];
  /** Audio tokens the upstream says it billed, as sent (billing's plausibility bounds judge the value). */
  reportedAudioTokens?: unknown;
}

/** A diarizer turn whose speaker is already the gateway's 0-based index. */
export interface SpeakerTurn extends TimedSpan {
  speaker: number;
}
