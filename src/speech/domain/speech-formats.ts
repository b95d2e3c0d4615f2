// The audio formats `/v1/audio/speech` answers in and how each is labelled and streamed.
export const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

export const STREAM_FORMATS = ['sse', 'audio'] as const;
export type StreamFormat = (typeof STREAM_FORMATS)[number];

/** Only headerless or header-first PCM can be sent before the length is known (spec: streaming rules). */
export const STREAMABLE_FORMATS: readonly SpeechFormat[] = ['pcm', 'wav'];
export const DEFAULT_STREAMED_FORMAT: SpeechFormat = 'wav';

export const SPEECH_CONTENT_TYPES: Record<SpeechFormat, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

export const SSE_CONTENT_TYPE = 'text/event-stream';

/** What an identified container is called as a speech format, for responses whose format the model chose. */
export function speechFormatOfContainer(container: string): SpeechFormat | null {
  const byContainer: Record<string, SpeechFormat> = { mp3: 'mp3', ogg: 'opus', aac: 'aac', flac: 'flac', wav: 'wav' };
  return byContainer[container] ?? null;
}
