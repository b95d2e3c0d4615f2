import { createHash } from 'node:crypto';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { audioFixture, corrupted, imageFixture } from '../fixtures/media/generate';
import { visualTokens } from '../../src/billing/metering/smart-resize';
import { billingEventsOf, postDecision, predicate } from './decision-client';

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('POST /v1/decisions: image and audio evidence', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const placeholder = () => gw.config.models.find((m) => m.id === 'verdict')!.architecture.visual_placeholder!;
  const withImages = (...urls: string[]) => [{ role: 'user', content: [{ type: 'input_text', text: 'Is the screen broken?' }, ...urls.map((image_url) => ({ type: 'input_image', image_url }))] }];
  const lastForwarded = () => gw.simulator.control.received((r) => r.path === '/v1/decisions').pop()!.body as Record<string, any>;

  it('measures inline images, reports image tokens and bills them with the megapixels', async () => {
    const png = await imageFixture({ format: 'png', width: 640, height: 480 });
    const gif = await imageFixture({ format: 'gif', width: 64, height: 48 });
    const reply = await postDecision(gw, { model: 'verdict', input: withImages(dataUrl('image/png', png), dataUrl('image/gif', gif)), questions: [predicate('Broken?')] });
    expect(reply.status).toBe(200);
    const imageTokens = visualTokens(480, 640, placeholder()) + visualTokens(48, 64, placeholder());
    const { usage } = reply.body;
    expect(usage.input_tokens_details.multimodal_tokens).toEqual({ text: usage.input_tokens - imageTokens, image: imageTokens, audio: 0 });
    const [measured, priced] = await billingEventsOf(gw, reply.requestId);
    expect((measured.data as any).input.image).toEqual({ count: 2, megapixels: '0.310272', tiles: imageTokens, tokens: imageTokens });
    // verdict bills text and image tokens at 0.0000003 USD, output tokens at 0.0000012 USD.
    expect((priced.data as { costUsdMicros: number }).costUsdMicros).toBe(Math.round(usage.input_tokens * 0.3 + usage.output_tokens * 1.2));
    expect(lastForwarded().input).toEqual(withImages(dataUrl('image/png', png), dataUrl('image/gif', gif)));
  });

  it('forwards web images in normalized form without fetching them, and still breaks usage down', async () => {
    const reply = await postDecision(gw, { model: 'verdict', input: withImages('HTTPS://Images.Example.COM:443/screen.jpg'), questions: [predicate('Broken?')] });
    expect(reply.status).toBe(200);
    expect(lastForwarded().input[0].content[1]).toEqual({ type: 'input_image', image_url: 'https://images.example.com/screen.jpg' });
    expect(reply.body.usage.input_tokens_details.multimodal_tokens).toEqual({ text: reply.body.usage.input_tokens, image: 0, audio: 0 });
  });

  it('refuses images the model profile does not take, and damaged ones', async () => {
    const bmp = await imageFixture({ format: 'bmp' });
    const refused = await postDecision(gw, { model: 'verdict', input: withImages(dataUrl('image/bmp', bmp)), questions: [predicate('x?')] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'unrecognized_container', param: 'input.0.content.1.image_url' });
    const damaged = corrupted(await imageFixture({ format: 'png', width: 320, height: 240 }));
    const broken = await postDecision(gw, { model: 'verdict', input: withImages(dataUrl('image/png', damaged)), questions: [predicate('x?')] });
    expect(broken.status).toBe(400);
    expect(broken.body.error.param).toBe('input.0.content.1.image_url');
    expect(await billingEventsOf(gw, broken.requestId)).toEqual([]);
  });

  it('forwards accepted audio as sent and bills its duration as audio tokens', async () => {
    const wav = await audioFixture({ kind: 'wav', seconds: 2 });
    const data = wav.toString('base64');
    const reply = await postDecision(gw, { model: 'verdict', input: 'Does the caller sound upset?', input_audio: { data, format: 'wav' }, questions: [predicate('Upset?')] });
    expect(reply.status).toBe(200);
    expect(lastForwarded().input_audio).toEqual({ data, format: 'wav' });
    const audioTokens = 2 + 25 * 2; // verdict: 2 tokens a clip + 25 a second
    const { usage } = reply.body;
    expect(usage.input_tokens_details.multimodal_tokens).toEqual({ text: usage.input_tokens - audioTokens, image: 0, audio: audioTokens });
    const [measured, priced] = await billingEventsOf(gw, reply.requestId);
    expect((measured.data as any).input.audio).toEqual({ duration: '2' });
    const textTokens = usage.input_tokens - audioTokens;
    // text 0.0000003, audio 0.0000025 USD a token; output 0.0000012.
    expect((priced.data as { costUsdMicros: number }).costUsdMicros).toBe(Math.round(textTokens * 0.3 + audioTokens * 2.5 + usage.output_tokens * 1.2));
  });

  it('converts audio outside the profile to its target (16 kHz mono PCM WAV) before forwarding', async () => {
    const flac = await audioFixture({ kind: 'flac', seconds: 1, sampleRate: 44100, channels: 2 });
    const reply = await postDecision(gw, { model: 'verdict', input: 'x', input_audio: { data: flac.toString('base64'), format: 'flac' }, questions: [predicate('Upset?')] });
    expect(reply.status).toBe(200);
    const forwarded = lastForwarded().input_audio;
    expect(forwarded.format).toBe('wav');
    const wav = Buffer.from(forwarded.data, 'base64');
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect({ channels: wav.readUInt16LE(22), sampleRate: wav.readUInt32LE(24) }).toEqual({ channels: 1, sampleRate: 16000 });
    expect(sha256(wav)).not.toBe(sha256(flac));
    expect(reply.body.usage.input_tokens_details.multimodal_tokens.audio).toBe(27);
  });

  it('refuses a clip that is not audio, and a clip given as a data: URL', async () => {
    const png = await imageFixture({ format: 'png' });
    const notAudio = await postDecision(gw, { model: 'verdict', input: 'x', input_audio: { data: png.toString('base64'), format: 'wav' }, questions: [predicate('x?')] });
    expect(notAudio.status).toBe(400);
    expect(notAudio.body.error.param).toBe('input_audio.data');
    const wav = await audioFixture({ kind: 'wav' });
    const asUrl = await postDecision(gw, { model: 'verdict', input: 'x', input_audio: { data: dataUrl('audio/wav', wav), format: 'wav' }, questions: [predicate('x?')] });
    expect(asUrl.status).toBe(400);
    expect(asUrl.body.error).toMatchObject({ code: 'invalid_base64', param: 'input_audio.data' });
  });
});
