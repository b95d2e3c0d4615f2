// The traffic both metrics tests send: chat (plain and streamed), speech (buffered and streamed), a
// transcription, and failures (an unknown route, an unknown model, a request without a key).
import { toFile } from 'openai';
import type { TestGateway } from '../../support/test-gateway';
import { CONVERSATION, spokenWav } from '../../transcription/support/spoken-audio';

export const UNKNOWN_PATH = '/v1/no-such-endpoint/req-8f2c';

/** Six charged requests on four routes, and three failures. */
export async function sendMixedTraffic(gw: TestGateway): Promise<void> {
  const client = gw.openai();
  await client.chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'Hello there.' }] });
  await client.chat.completions.create({ model: 'aria-guarded', messages: [{ role: 'user', content: 'Count to three.' }] });
  const stream = await client.chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'Tell me a story.' }], stream: true });
  for await (const chunk of stream) void chunk;
  await (await client.audio.speech.create({ model: 'chorus-voices', input: 'Metrics, please.', voice: 'vivian', response_format: 'mp3' })).arrayBuffer();
  const streamed = await gw.postJson('/v1/audio/speech', { model: 'chorus-voices', input: 'A streamed answer.', voice: 'ryan', stream_format: 'sse' });
  expectStatus(streamed.status, 200, await streamed.text());
  await client.audio.transcriptions.create({ file: await toFile(spokenWav(CONVERSATION), 'a.wav'), model: 'symphony' });
  expectStatus((await fetch(`${gw.baseUrl}${UNKNOWN_PATH}`)).status, 404);
  const unknownModel = await gw.postJson('/v1/chat/completions', { model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] });
  expectStatus(unknownModel.status, 404, await unknownModel.text());
  const keyless = await fetch(`${gw.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expectStatus(keyless.status, 401);
}

function expectStatus(actual: number, expected: number, body = ''): void {
  if (actual !== expected) throw new Error(`expected HTTP ${expected}, got ${actual}: ${body.slice(0, 300)}`);
}
