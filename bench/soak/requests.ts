// The four requests of the mixed soak, each as ready bytes: a small text chat completion for `aria`
// (as bench:gateway sends it), the same streamed, a short speech request (mp3, which the gateway
// decodes with ffmpeg to bill the duration) and a transcription upload of a 3.7 s WAV (multipart).
import { CONVERSATION, spokenWav } from '../../test/transcription/support/spoken-audio';
import type { SoakKind } from './mix';

export interface SoakRequest {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** A streamed answer must end with `data: [DONE]`. */
  expectDone: boolean;
}

const PROMPT = [{ role: 'user', content: 'Say hello in one short sentence.' }];
const SPEECH_INPUT = 'Your order has shipped and will arrive on Tuesday.';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** A multipart body as the platform's FormData serialises it (boundary and all), read once into bytes. */
async function multipart(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const request = new Request('http://soak.invalid/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

export async function soakRequests(apiKey: string): Promise<Record<SoakKind, SoakRequest>> {
  const auth = { authorization: `Bearer ${apiKey}` };
  const jsonHeaders = { ...auth, 'content-type': 'application/json' };
  const form = new FormData();
  form.append('model', 'rhythm');
  form.append('response_format', 'json');
  form.append('file', new Blob([new Uint8Array(spokenWav(CONVERSATION))], { type: 'audio/wav' }), 'conversation.wav');
  const upload = await multipart(form);
  return {
    chat: { path: '/v1/chat/completions', headers: jsonHeaders, body: json({ model: 'aria', messages: PROMPT, max_tokens: 16 }), expectDone: false },
    'chat stream': {
      path: '/v1/chat/completions',
      headers: jsonHeaders,
      body: json({ model: 'aria', messages: PROMPT, max_tokens: 16, stream: true, stream_options: { include_usage: true } }),
      expectDone: true,
    },
    speech: { path: '/v1/audio/speech', headers: jsonHeaders, body: json({ model: 'chorus-voices', input: SPEECH_INPUT, voice: 'vivian', response_format: 'mp3' }), expectDone: false },
    transcription: { path: '/v1/audio/transcriptions', headers: { ...auth, 'content-type': upload.contentType }, body: upload.body, expectDone: false },
  };
}
