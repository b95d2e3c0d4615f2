// Issue 37's media attacks through real HTTP: a decompression bomb sent to every path that takes
// images, a 4K clip whose prompt is too long, a client that leaves while its video is processed,
// more media requests than there are slots, and the media seconds each organization spent.
// Figures (time to refusal, peak RSS of the gateway and its children) are printed, not asserted.
import { DEFAULT_MEDIA_ENV } from '../../src/media';
import { heavyVideoFixture, imageFixture } from '../fixtures/media/generate';
import { postChat } from '../chat/chat-test-helpers';
import { postDecision, predicate } from '../decisions/decision-client';
import { postImageForm } from '../images/image-client';
import { counterValue, mediaChildren, memorySampler, pixelBombPng, waitUntil } from '../support/media-attacks';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

jest.setTimeout(180_000);

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
const askAria = (part: Record<string, unknown>) => ({ model: 'aria', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, part] }] });
const videoPart = (mp4: Buffer) => ({ type: 'video_url', video_url: { url: dataUrl('video/mp4', mp4) } });
const imagePart = (png: Buffer) => ({ type: 'image_url', image_url: { url: dataUrl('image/png', png) } });
/** 300 frames of 3840x2160: seconds of decoding and transcoding, and a prompt within aria's limit. */
const longVideo = () => heavyVideoFixture({ width: 3840, height: 2160, fps: 30, seconds: 10 });

async function mediaCounter(gw: TestGateway, name: string): Promise<number> {
  const response = await fetch(`${gw.baseUrl}/metrics`);
  return counterValue(await response.text(), name, { organization: gw.orgId });
}

const elapsedSince = (start: number) => Math.round(performance.now() - start);

describe('media attacks (issue 37)', () => {
  let gw: TestGateway;
  let bomb: Buffer;
  beforeAll(async () => {
    gw = await startTestGateway();
    bomb = await pixelBombPng(16000, 16000);
  });
  afterAll(() => gw?.close());

  it('refuses a 16000 x 16000 PNG bomb on images/edits, chat and decisions at once, with 400 before any child starts', async () => {
    const processesBefore = await mediaCounter(gw, 'gateway_media_processes_total');
    const memory = memorySampler();
    const start = performance.now();
    const timed = async <T>(work: Promise<T>) => ({ reply: await work, ms: elapsedSince(start) });
    const [edits, chat, decision] = await Promise.all([
      timed(postImageForm(gw, 'edits', { prompt: 'Make it brighter', model: 'canvas' }, [{ field: 'image', bytes: bomb, filename: 'bomb.png', type: 'image/png' }])),
      timed(postChat(gw, askAria(imagePart(bomb)))),
      timed(postDecision(gw, { model: 'verdict', input: [{ role: 'user', content: [{ type: 'input_image', image_url: dataUrl('image/png', bomb) }] }], questions: [predicate('Bright?')] })),
    ]);
    const peaks = memory.stop();
    const editsBody = (await edits.reply.json()) as { error: { message: string } };
    expect(edits.reply.status).toBe(400);
    expect(editsBody.error).toMatchObject({ code: 'image_too_large', param: 'image', type: 'invalid_request_error' });
    expect(editsBody.error.message).toBe('The image is 16000 x 16000 px (256,000,000 pixels); the gateway decodes at most 40,000,000 pixels');
    expect(chat.reply.status).toBe(400);
    expect(chat.reply.body.error).toMatchObject({ code: 'image_too_large', param: 'messages.0.content.1.image_url.url' });
    expect(decision.reply.status).toBe(400);
    expect(decision.reply.body.error).toMatchObject({ code: 'image_too_large', param: 'input.0.content.0.image_url' });
    expect(peaks.children).toBe(0);
    expect(await mediaCounter(gw, 'gateway_media_processes_total')).toBe(processesBefore);
    expect(await gw.events('UsageMeasured')).toHaveLength(0);
    console.log(`pixel bomb (${bomb.length} bytes PNG): refused in ${edits.ms} ms (edits), ${chat.ms} ms (chat), ${decision.ms} ms (decisions); ` +
      `media children started: ${peaks.children}; test process (gateway + jest) peak RSS ${peaks.gatewayPeakMiB} MiB, +${peaks.gatewayGrowthMiB} MiB during the requests`);
  });

  it('accepts an image at exactly the pixel cap and refuses one pixel row more (header check, no decode)', async () => {
    const atCap = await pixelBombPng(8000, 5000);
    const pastCap = await pixelBombPng(8000, 5001);
    const over = await postChat(gw, askAria(imagePart(pastCap)));
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('image_too_large');
    // At the cap the image passes the header check; aria's profile (at most 4096 px wide) then refuses nothing
    // and converts it, so it is decoded: the cap, not the profile, is what stopped the other one.
    const at = await postChat(gw, askAria(imagePart(atCap)));
    expect(at.status).toBe(200);
    expect(at.body.usage.input.image.count).toBe(1);
  });

  it('refuses a 4K clip whose declared frames overflow the prompt after reading only its header', async () => {
    const clip = await heavyVideoFixture({ width: 3840, height: 2160, fps: 1, seconds: 60 });
    const processesBefore = await mediaCounter(gw, 'gateway_media_processes_total');
    const start = performance.now();
    const reply = await postChat(gw, askAria(videoPart(clip)));
    const ms = elapsedSince(start);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'prompt_too_long', param: 'messages' });
    // One child: the header read. Nothing was decoded.
    expect(await mediaCounter(gw, 'gateway_media_processes_total')).toBe(processesBefore + 1);
    console.log(`4K clip, 60 frames declared (${clip.length} bytes): prompt_too_long in ${ms} ms after 1 media child`);
  });

  it('kills the media children of a client that left, and neither calls the model nor bills', async () => {
    const clip = await longVideo();
    const usageBefore = (await gw.events('UsageMeasured')).length;
    const processesBefore = await mediaCounter(gw, 'gateway_media_processes_total');
    gw.simulator.control.reset();
    const client = new AbortController();
    const memory = memorySampler();
    const reply = gw.postJson('/v1/chat/completions', askAria(videoPart(clip)), { signal: client.signal }).catch((error: Error) => error);
    // The transcode to aria's 1280x720 target: seconds of work once it starts.
    const transcoder = await waitUntil('the transcoding ffmpeg', () => mediaChildren().find((child) => child.name === 'ffmpeg'));
    const abortedAt = performance.now();
    client.abort();
    expect(((await reply) as Error).name).toBe('AbortError');
    await waitUntil('every media child gone', () => mediaChildren().length === 0);
    const goneMs = elapsedSince(abortedAt);
    const peaks = memory.stop();
    expect(mediaChildren().some((child) => child.pid === transcoder.pid)).toBe(false);
    // The header read, the decode check and the killed transcode; the probe of its output never ran.
    expect(await mediaCounter(gw, 'gateway_media_processes_total')).toBe(processesBefore + 3);
    expect(gw.simulator.control.received((r) => r.path === '/v1/chat/completions')).toHaveLength(0);
    expect(await gw.events('UsageMeasured')).toHaveLength(usageBefore);
    console.log(`abandoned 4K video: ffmpeg ${transcoder.pid} gone ${goneMs} ms after the client left; ` +
      `peak child RSS ${peaks.childPeakMiB} MiB, test process (gateway + jest) peak RSS ${peaks.gatewayPeakMiB} MiB (+${peaks.gatewayGrowthMiB} MiB)`);
  });

  it('counts the media seconds and processes of each organization', async () => {
    const secondsBefore = await mediaCounter(gw, 'gateway_media_process_seconds_total');
    const processesBefore = await mediaCounter(gw, 'gateway_media_processes_total');
    const gif = await imageFixture({ format: 'gif', width: 64, height: 48 });
    const reply = await postChat(gw, askAria({ type: 'image_url', image_url: { url: dataUrl('image/gif', gif) } }));
    expect(reply.status).toBe(200);
    // A GIF aria does not accept: the decode check, then the conversion to PNG.
    expect(await mediaCounter(gw, 'gateway_media_processes_total')).toBe(processesBefore + 2);
    const seconds = (await mediaCounter(gw, 'gateway_media_process_seconds_total')) - secondsBefore;
    expect(seconds).toBeGreaterThan(0);
    console.log(`a GIF converted for aria: 2 media children, ${seconds.toFixed(3)} media seconds`);
  });
});

describe('media slots', () => {
  const slots = (queueLength: number, waitMs: number) => ({ env: { media: { ...DEFAULT_MEDIA_ENV, slots: { global: 4, perOrganization: 1, queueLength, waitMs } } } });
  const smallPng = () => imageFixture({ format: 'png', width: 64, height: 48 });

  /** Starts the long video request and resolves once its transcode (seconds long) holds the organization's one slot. */
  async function holdTheOnlySlot(gw: TestGateway): Promise<{ client: AbortController; reply: Promise<unknown> }> {
    const clip = await longVideo();
    const client = new AbortController();
    const reply = gw.postJson('/v1/chat/completions', askAria(videoPart(clip)), { signal: client.signal }).catch((error: Error) => error);
    await waitUntil('the transcoding ffmpeg', () => mediaChildren().some((child) => child.name === 'ffmpeg'));
    return { client, reply };
  }

  it('refuses a media request past the per-organization cap with 503 media_busy and Retry-After when the queue is full', async () => {
    const gw = await startTestGateway(slots(0, 0));
    try {
      const holder = await holdTheOnlySlot(gw);
      const start = performance.now();
      const refused = await postChat(gw, askAria(imagePart(await smallPng())));
      const ms = elapsedSince(start);
      holder.client.abort();
      await holder.reply;
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body.error).toMatchObject({ code: 'media_busy', type: 'service_unavailable' });
      expect(await mediaCounter(gw, 'gateway_media_busy_total')).toBe(1);
      console.log(`media slots full (1 per organization, no queue): 503 media_busy in ${ms} ms`);
      await waitUntil('every media child gone', () => mediaChildren().length === 0);
    } finally {
      await gw.close();
    }
  });

  it('queues the extra request, and serves it once the slot is free', async () => {
    const gw = await startTestGateway(slots(4, 120_000));
    try {
      const holder = await holdTheOnlySlot(gw);
      const queued = postChat(gw, askAria(imagePart(await smallPng())));
      await waitUntil('the request queued for a slot', () => gw.gateway.runtime.media.slots.waitingCount() === 1);
      // It waits: the slot's holder has to end first (here its client leaves).
      holder.client.abort();
      await holder.reply;
      const served = await queued;
      expect(served.status).toBe(200);
      expect(served.body.usage.input.image.count).toBe(1);
      await waitUntil('every media child gone', () => mediaChildren().length === 0);
    } finally {
      await gw.close();
    }
  });
});
