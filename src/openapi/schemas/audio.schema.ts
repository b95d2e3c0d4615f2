// Voice listing (src/speech/domain/voice-list.ts) and transcription responses (spec:
// TranscriptionResponse; src/transcription/transcript.types.ts).
import { JsonSchema, arrayOf, constant, integer, number, object, orNull, ref, string } from '../json-schema';
import { sseEvent } from './chat.schema';
import { OPENAI_USAGE_OPT_IN } from './usage.schema';

const seconds = (): JsonSchema => ({ ...number(), description: 'Seconds.' });

export const AUDIO_SCHEMAS: Record<string, JsonSchema> = {
  SpeechStreamEvent: sseEvent('One event of a speech stream (`stream_format: sse`).', { oneOf: [ref('SpeechAudioDelta'), ref('SpeechAudioDone')] }),
  SpeechAudioDelta: object({ type: constant('speech.audio.delta'), audio: { ...string('Base64 of the next bytes of the audio file.'), contentEncoding: 'base64' } }),
  SpeechAudioDone: object({ type: constant('speech.audio.done'), usage: ref('Usage') }),
  VoiceListResponse: object(
    {
      object: constant('list'),
      model: string('The model id asked for; an alias lists the union of its members\' presets.'),
      data: arrayOf(ref('Voice')),
      uploaded_voices: { type: 'array', maxItems: 0, description: 'Always empty: there are no per-account voices.' },
    },
    { description: 'An OpenAI-style voice list of the model\'s preset voices.' },
  ),
  Voice: object({
    id: { ...string('Lowercase preset id, accepted as `voice` by the speech endpoint.'), pattern: '^[^A-Z]+$' },
    object: constant('voice'),
    type: constant('preset'),
    models: { ...arrayOf(string()), description: 'The concrete models that accept this preset.' },
  }),
  TranscriptionResponse: object(
    {
      text: string(),
      task: constant('transcribe'),
      language: { ...orNull(string()), description: 'Echoes the request\'s language hint; present only when one was sent.' },
      duration: { ...orNull(number()), description: 'Seconds (verbose_json).' },
      segments: orNull(arrayOf(ref('TranscriptionSegment'))),
      words: { ...orNull(arrayOf(ref('TranscriptionWord'))), description: 'Set only on the verbose_json path.' },
      usage: { ...orNull(ref('Usage')), description: `Absent when nothing was measured. ${OPENAI_USAGE_OPT_IN}TranscriptionUsage.` },
    },
    { optional: ['task', 'language', 'duration', 'segments', 'words', 'usage'], additional: true },
  ),
  TranscriptionSegment: object({ start: seconds(), end: seconds(), text: string() }, { additional: true }),
  TranscriptionWord: object(
    {
      word: string(),
      start: seconds(),
      end: seconds(),
      speaker: {
        ...orNull(integer(0)),
        description: '0-indexed speaker, set only when diarization ran; null means no speaker turn covers the word.',
      },
    },
    { optional: ['speaker'] },
  ),
};
