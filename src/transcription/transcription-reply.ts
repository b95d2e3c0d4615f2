// The client's view of a transcript in the requested response_format (spec response rules 1-7).
import type { TranscriptionUsage } from './transcription-usage';
import type { Usage } from '../billing/usage';
import { renderSrt, renderVtt } from './captions';
import type { EnrichedTranscript } from './enrich-transcript';
import type { TranscriptionPlan } from './transcription-plan';

export const TEXT_PLAIN = 'text/plain; charset=utf-8';
export const APPLICATION_JSON = 'application/json; charset=utf-8';

export interface TranscriptionReply {
  contentType: typeof TEXT_PLAIN | typeof APPLICATION_JSON;
  body: string | Record<string, unknown>;
}

function verboseBody(plan: TranscriptionPlan, transcript: EnrichedTranscript, audioSeconds: number, usage: Usage | TranscriptionUsage) {
  return {
    task: 'transcribe',
    ...(plan.language !== undefined ? { language: plan.language } : {}),
    duration: audioSeconds,
    text: transcript.text,
    segments: transcript.segments,
    ...(transcript.words ? { words: transcript.words } : {}),
    usage,
  };
}

/** Plain-text formats carry no usage: the request is billed all the same (see docs/transcription.md). */
export function transcriptionReply(
  plan: TranscriptionPlan,
  transcript: EnrichedTranscript,
  audioSeconds: number,
  usage: Usage | TranscriptionUsage,
): TranscriptionReply {
  switch (plan.format) {
    case 'json':
      return { contentType: APPLICATION_JSON, body: { text: transcript.text, usage } };
    case 'verbose_json':
      return { contentType: APPLICATION_JSON, body: verboseBody(plan, transcript, audioSeconds, usage) };
    case 'text':
      return { contentType: TEXT_PLAIN, body: `${transcript.text}\n` };
    case 'srt':
      return { contentType: TEXT_PLAIN, body: renderSrt(transcript.segments) };
    case 'vtt':
      return { contentType: TEXT_PLAIN, body: renderVtt(transcript.segments) };
  }
}
