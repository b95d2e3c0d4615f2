// Image, video and audio content parts on aria: inline data: URLs only, identified from the bytes,
// accepted or converted per the model's media_profiles, measured into the usage vector.
import { visualTokens } from '../../src/billing/metering/smart-resize';
import { readImageHeader } from '../../src/media';
import { audioFixture, imageFixture, videoFixture } from '../fixtures/media/generate';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { forwardedChatBodies, postChat } from './chat-test-helpers';

const ARIA_VISION = { factor: 28, image_min_pixels: 3136, image_max_pixels: 1003520 };
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
const ask = (part: Record<string, unknown>, model = 'aria') => ({
  model,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, part] }],
});
const fromDataUrl = (url: string) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');

describe('media content parts (aria)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  }, 60_000);
  afterAll(() => gw?.close());
  beforeEach(() => gw.simulator.control.reset());

  const forwardedPart = () => forwardedChatBodies(gw)[0].messages[0].content[1];
  const eventCount = async () => (await gw.events('UsageMeasured')).length;

  it('forwards an accepted PNG as sent and meters its smart-resize tokens', async () => {
    const png = await imageFixture({ format: 'png', width: 640, height: 480 });
    const res = await postChat(gw, ask({ type: 'image_url', image_url: { url: dataUrl('image/png', png), detail: 'high' } }));
    expect(res.status).toBe(200);
    expect(forwardedPart()).toEqual({ type: 'image_url', image_url: { url: dataUrl('image/png', png), detail: 'high' } });
    const tokens = visualTokens(480, 640, ARIA_VISION);
    expect(res.body.usage.input.image).toEqual({ count: 1, megapixels: '0.3072', tiles: tokens, tokens });
  });

  it('converts a GIF (not accepted) to PNG, and an oversized image down to the target bounds', async () => {
    const gif = await imageFixture({ format: 'gif' });
    expect((await postChat(gw, ask({ type: 'image_url', image_url: { url: dataUrl('image/gif', gif) } }))).status).toBe(200);
    expect(forwardedPart().image_url.url).toMatch(/^data:image\/png;base64,/);
    gw.simulator.control.reset();
    const wide = await imageFixture({ format: 'jpeg', width: 4200, height: 100 });
    const res = await postChat(gw, ask({ type: 'image_url', image_url: { url: dataUrl('image/jpeg', wide) } }));
    expect(res.status).toBe(200);
    const sent = readImageHeader(fromDataUrl(forwardedPart().image_url.url));
    expect(sent).toMatchObject({ format: 'png', width: 2048, height: 49 });
    expect(res.body.usage.input.image.megapixels).toBe('0.100352');
  });

  it('meters an accepted MP4 by its sampled frames and duration', async () => {
    const mp4 = await videoFixture({ container: 'mp4', width: 64, height: 48, fps: 10, seconds: 1 });
    const res = await postChat(gw, ask({ type: 'video_url', video_url: { url: dataUrl('video/mp4', mp4) } }));
    expect(res.status).toBe(200);
    expect(forwardedPart().video_url.url).toBe(dataUrl('video/mp4', mp4));
    expect(res.body.usage.input.video).toEqual({ duration: '1', frames: 2, tokens: 2 * visualTokens(48, 64, ARIA_VISION) });
  });

  it('transcodes an AVI (not accepted) to MP4 before forwarding', async () => {
    const avi = await videoFixture({ container: 'avi' });
    const res = await postChat(gw, ask({ type: 'video_url', video_url: { url: dataUrl('video/x-msvideo', avi) } }));
    expect(res.status).toBe(200);
    const sent = fromDataUrl(forwardedPart().video_url.url);
    expect(forwardedPart().video_url.url).toMatch(/^data:video\/mp4;base64,/);
    expect(sent.toString('latin1', 4, 8)).toBe('ftyp');
  });

  it('accepts an audio_url WAV as sent and converts FLAC and out-of-range sample rates to the target', async () => {
    const wav = await audioFixture({ kind: 'wav', seconds: 1 });
    const res = await postChat(gw, ask({ type: 'audio_url', audio_url: { url: dataUrl('audio/wav', wav) } }));
    expect(res.status).toBe(200);
    expect(forwardedPart().audio_url.url).toBe(dataUrl('audio/wav', wav));
    expect(res.body.usage.input.audio).toEqual({ duration: '1' });
    gw.simulator.control.reset();
    const highRate = await audioFixture({ kind: 'wav', sampleRate: 96000 });
    expect((await postChat(gw, ask({ type: 'input_audio', input_audio: { data: highRate.toString('base64'), format: 'wav' } }))).status).toBe(200);
    const sent = Buffer.from(forwardedPart().input_audio.data, 'base64');
    expect(sent.readUInt32LE(24)).toBe(16000);
  });

  it.each([
    ['a web URL', { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }, 400, 'media_url_not_inline'],
    ['a non-base64 data: URL', { type: 'image_url', image_url: { url: 'data:image/png,rawbytes' } }, 400, 'invalid_data_url'],
    ['an unsupported image format (BMP)', { type: 'image_url', image_url: { url: 'BMP' } }, 400, 'unrecognized_container'],
    ['audio in a video part', { type: 'video_url', video_url: { url: 'WAV' } }, 400, 'not_video'],
  ])('refuses %s with a precise 400 and no event', async (_case, part, status, code) => {
    const filled = JSON.parse(JSON.stringify(part));
    if (filled.image_url?.url === 'BMP') filled.image_url.url = dataUrl('image/bmp', await imageFixture({ format: 'bmp' }));
    if (filled.video_url?.url === 'WAV') filled.video_url.url = dataUrl('video/mp4', await audioFixture({ kind: 'wav' }));
    const before = await eventCount();
    const res = await postChat(gw, ask(filled));
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.param).toMatch(/^messages\.0\.content\.1\./);
    expect(await eventCount()).toBe(before);
  });

  it('refuses media kinds a model has no profile for', async () => {
    const png = await imageFixture({ format: 'png' });
    const res = await postChat(gw, ask({ type: 'image_url', image_url: { url: dataUrl('image/png', png) } }, 'aria-guarded'));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'unsupported_media', param: 'messages.0.content.1.image_url.url' });
  });

  it('answers 422 for a media part without its payload', async () => {
    const res = await postChat(gw, ask({ type: 'image_url', image_url: {} }));
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'messages', 0, 'content', 1, 'image_url', 'url']);
  });
});
