// The `sse` stream format (OpenAI speech streaming): audio in `speech.audio.delta` events, then one
// `speech.audio.done` event that carries the gateway's priced Usage.
import { specUsageOf } from '../../billing/client-usage';
import type { Usage } from '../../billing/usage';

export interface SpeechAudioDelta {
  type: 'speech.audio.delta';
  /** Base64 of the next bytes of the audio file (a WAV stream's first delta starts with its header). */
  audio: string;
}

export interface SpeechAudioDone {
  type: 'speech.audio.done';
  usage: Usage;
}

const event = (payload: SpeechAudioDelta | SpeechAudioDone) => `data: ${JSON.stringify(payload)}\n\n`;

export const audioDeltaEvent = (audio: Buffer): string => event({ type: 'speech.audio.delta', audio: audio.toString('base64') });

export const audioDoneEvent = (usage: Usage): string => event({ type: 'speech.audio.done', usage: specUsageOf(usage) });
