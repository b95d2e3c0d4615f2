import { generateApiKey, hashApiKey } from '../../src/access/key-hash';
import { identifyAudio } from '../../src/media';
import { audioFixture, corrupted, randomBytes, type AudioSpec } from '../fixtures/media/generate';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { awaitBill, billOf } from './speech-billing';

const OTHER_ORG = 'org-other';
const otherKey = generateApiKey();
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

describe('POST /v1/audio/speech voice cloning', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.organizations.push({ id: OTHER_ORG, payment_method: true, rate_limit: { requests: 60, window_seconds: 60 } });
        config.keys.push({ id: 'key-other', hash: hashApiKey(otherKey), owner: 'other', organizations: [OTHER_ORG], default_organization: OTHER_ORG });
      },
    });
  });
  afterAll(() => gw.close());

  const clone = (body: Record<string, unknown>, apiKey = gw.apiKey) =>
    gw.postJson('/v1/audio/speech', { model: 'chorus', input: 'Say it in my voice.', response_format: 'wav', ...body }, { headers: { authorization: `Bearer ${apiKey}` } });
  const lastForwarded = () => gw.simulator.control.received((r) => r.path === '/v1/audio/speech').at(-1)?.body as Record<string, string>;
  const forwardedReference = () => Buffer.from(lastForwarded().ref_audio.split(',')[1], 'base64');

  it.each<[string, AudioSpec, string]>([
    ['mp3', { kind: 'mp3', seconds: 2, sampleRate: 44100 }, 'audio/mpeg'],
    ['flac', { kind: 'flac', seconds: 1.5, sampleRate: 48000, channels: 2 }, 'audio/flac'],
    ['ogg opus', { kind: 'ogg-opus', seconds: 1, sampleRate: 48000 }, 'audio/ogg'],
    ['m4a', { kind: 'm4a', seconds: 1, sampleRate: 44100 }, 'audio/mp4'],
    ['8 kHz wav', { kind: 'wav', seconds: 1, sampleRate: 8000 }, 'audio/wav'],
  ])('transcodes a %s reference to the 24 kHz mono WAV the clone model takes, and bills the clone', async (_name, spec, mime) => {
    const response = await clone({ ref_audio: dataUrl(mime, await audioFixture(spec)), ref_text: 'a reference' });
    expect(response.status).toBe(200);
    expect(lastForwarded()).toMatchObject({ model: 'chorus-clone', ref_text: 'a reference' });
    expect(lastForwarded().ref_audio).toMatch(/^data:audio\/wav;base64,/);
    const sent = await identifyAudio(forwardedReference());
    expect(sent).toMatchObject({ container: 'wav', codec: 'pcm_s16le', sampleRate: 24000, channels: 1 });
    const bill = await awaitBill(gw, response.headers.get('x-request-id'));
    expect(bill.usage.model).toBe('chorus-clone');
    expect(bill.usage.input.voice).toEqual({ clone_count: 1, design_count: 0, reference_duration: sent.durationSeconds });
    expect(bill.usage.input.audio.duration).toBe(sent.durationSeconds);
    expect(bill.cost.lineItems.map((item) => item.name)).toEqual(
      expect.arrayContaining(['chorus-clone, input voice count', 'chorus-clone, input audio tokens']),
    );
  });

  it('passes a reference the model accepts as sent', async () => {
    const reference = await audioFixture({ kind: 'wav', seconds: 1, sampleRate: 16000 });
    expect((await clone({ ref_audio: dataUrl('audio/wav', reference) })).status).toBe(200);
    expect(forwardedReference().equals(reference)).toBe(true);
  });

  it('salts the prefix cache per organization and reference, overwriting the client\'s salt', async () => {
    const reference = dataUrl('audio/mpeg', await audioFixture({ kind: 'mp3', seconds: 1 }));
    await clone({ ref_audio: reference, cache_salt: 'client-chosen' });
    const first = lastForwarded().cache_salt;
    await clone({ ref_audio: reference });
    const again = lastForwarded().cache_salt;
    await clone({ ref_audio: reference }, otherKey);
    const otherTenant = lastForwarded().cache_salt;
    await clone({ ref_audio: dataUrl('audio/mpeg', await audioFixture({ kind: 'mp3', seconds: 2 })) });
    const otherReference = lastForwarded().cache_salt;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(again).toBe(first);
    expect(otherTenant).not.toBe(first);
    expect(otherReference).not.toBe(first);
  });

  it('keeps the client\'s cache_salt when nothing is cloned', async () => {
    await clone({ voice: 'amber', cache_salt: 'client-chosen' });
    expect(lastForwarded().cache_salt).toBe('client-chosen');
  });

  it.each([
    ['damaged audio', async () => dataUrl('audio/mpeg', corrupted(await audioFixture({ kind: 'mp3', seconds: 2 }))), 'undecodable_media'],
    ['bytes that are not media', async () => dataUrl('audio/wav', randomBytes(4000)), 'unrecognized_container'],
    ['invalid base64', async () => 'data:audio/wav;base64,not*base64', 'invalid_base64'],
    ['a web URL', async () => 'https://example.com/voice.wav', 'media_url_not_inline'],
    ['text that is no data: URL', async () => 'voice.wav', 'invalid_data_url'],
  ])('answers 400 for %s and bills nothing', async (_case, reference, code) => {
    const response = await clone({ ref_audio: await reference() });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string; param: string } }).error).toMatchObject({ code, param: 'ref_audio' });
    expect(await billOf(gw, response.headers.get('x-request-id'))).toBeNull();
  });

  it('answers 413 when the reference exceeds 8 MiB after transcoding', async () => {
    // 180 s of mp3 is small as sent but 8.6 MB as 24 kHz 16-bit mono WAV.
    const reference = await audioFixture({ kind: 'mp3', seconds: 180 });
    expect(reference.length).toBeLessThan(8 * 1024 * 1024);
    const response = await clone({ ref_audio: dataUrl('audio/mpeg', reference) });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string; param: string } }).error).toMatchObject({ code: 'media_too_large', param: 'ref_audio' });
  });
});
