// Reads the transcription upstream's verbose_json (OpenAI / vLLM shape). Timing fields are taken as
// sent: whether they are usable is the timing check's call, so missing or odd times are not lost here.
import type { TranscriptSegment, TranscriptWord, UpstreamTranscript } from './transcript.types';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function words(value: unknown): TranscriptWord[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((entry: unknown) => {
    const word = isObject(entry) ? entry : {};
    return { word: typeof word.word === 'string' ? word.word : '', start: word.start as number, end: word.end as number };
  });
}

function segments(value: unknown): TranscriptSegment[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((entry: unknown) => {
    const segment = isObject(entry) ? entry : {};
    return { ...segment, text: typeof segment.text === 'string' ? segment.text : '', start: segment.start as number, end: segment.end as number };
  });
}

/** OpenAI's token usage `{type: 'tokens', input_token_details: {audio_tokens}}`; duration usage has no tokens. */
function reportedAudioTokens(usage: unknown): unknown {
  if (!isObject(usage) || usage.type !== 'tokens') return undefined;
  const details = isObject(usage.input_token_details) ? usage.input_token_details : {};
  return details.audio_tokens ?? usage.input_tokens;
}

/** Returns the transcript, or a reason why the body is not one. */
export function readUpstreamTranscript(body: unknown): UpstreamTranscript | { problem: string } {
  if (!isObject(body)) return { problem: 'the body is not a JSON object' };
  if (typeof body.text !== 'string') return { problem: 'it has no `text` string' };
  return {
    text: body.text,
    words: words(body.words),
    segments: segments(body.segments),
    reportedAudioTokens: reportedAudioTokens(body.usage),
  };
}
