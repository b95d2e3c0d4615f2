// What a request handler observed: boundary measurements (taken by the gateway from the bytes it
// saw) and the upstream's own report. Metering turns this into the spec's Usage vector.

/** The upstream's OpenAI-style usage report, normalised (all optional: vLLM may omit details). */
export interface UpstreamReport {
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
  audioPromptTokens?: number;
  audioCompletionTokens?: number;
  imagePromptTokens?: number;
  videoPromptTokens?: number;
}

/** A usage report as the upstream sent it (any JSON value per field), before the plausibility bounds. */
export type ReportedUsage = { [K in keyof UpstreamReport]?: unknown };

/**
 * What the gateway knows that bounds an upstream's report (see plausibility.ts). Every field is
 * optional: a bound without its input is not applied.
 */
export interface ReportLimits {
  /** The gateway's own prompt count: its text estimate plus the media placeholder tokens. */
  promptEstimate?: number;
  /** Completion tokens the gateway counted in what it relayed or received. */
  completionCounted?: number;
  /** The completion cap the gateway sent upstream, per choice; null when it sent none. */
  completionCap?: number | null;
  /** Choices asked for (`n`); 1 when absent. */
  choices?: number;
  /** The model's context length, when the catalog states one. */
  contextLength?: number | null;
}

export interface MeasuredAudio {
  /** Seconds, decimal string, measured from the decoded audio. */
  durationSeconds: string;
  /**
   * Channels of the clip, for the record only: input audio is billed by duration whatever its
   * channels, output audio as mono unless the model's output_defaults.channels says otherwise.
   */
  channels?: number;
}

export interface MeasuredImage {
  width: number;
  height: number;
}

export interface MeasuredVideo {
  durationSeconds: string;
  width: number;
  height: number;
  /** Frames the model samples (see docs/metering.md), not the container's frame count. */
  frames: number;
}

export interface Measurement {
  /** A report already checked (or produced by the gateway itself); billing uses it as is. */
  upstream?: UpstreamReport;
  /** The upstream's report as sent: billing bounds it (plausibility.ts) into `upstream`. */
  reported?: ReportedUsage;
  limits?: ReportLimits;
  input: {
    /** Prompt text tokens when no upstream report is available (e.g. decisions, streaming abort). */
    textTokens?: number;
    /** TTS bills input by characters. */
    textCharacters?: number;
    audio?: MeasuredAudio[];
    images?: MeasuredImage[];
    videos?: MeasuredVideo[];
    /** Voice work of a speech request: one clone and/or one design operation. */
    voice?: { clone: boolean; design: boolean; referenceSeconds?: string };
  };
  output: {
    /** Completion text tokens (reasoning included) when no upstream report is available. */
    textTokens?: number;
    /** Reasoning tokens among textTokens when the upstream report does not say. */
    reasoningTokens?: number;
    audio?: MeasuredAudio[];
    imageCount?: number;
    toolCalls?: number;
    webSearchCalls?: number;
  };
}
