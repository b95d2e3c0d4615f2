// Images and video through real ffprobe: identification from the bytes, sizes, frame counts,
// and damaged files refused.
import { audioFixture, corrupted, imageFixture, ImageFixtureFormat, randomBytes, truncated, videoFixture, VideoFixtureContainer } from '../../test/fixtures/media/generate';
import { probeImage } from './image-probe';
import { MediaError } from './media-error';
import { probeMedia } from './media-probe';
import { probeVideo, readVideoHeader } from './video-probe';
import { MediaGate } from './admission/media-gate';
import { DEFAULT_MEDIA_ENV } from './admission/media-env';

const imageFormats: Exclude<ImageFixtureFormat, 'bmp'>[] = ['png', 'jpeg', 'gif', 'webp'];
const containers: VideoFixtureContainer[] = ['mp4', 'webm', 'mov', 'avi', 'mkv'];
const videoCodec: Record<VideoFixtureContainer, string> = { mp4: 'h264', webm: 'vp8', mov: 'h264', avi: 'mpeg4', mkv: 'h264' };

async function mediaErrorOf(work: Promise<unknown>): Promise<MediaError> {
  const error = await work.then(() => null, (caught: unknown) => caught);
  if (!(error instanceof MediaError)) throw new Error(`expected a MediaError, got ${String(error)}`);
  return error;
}

describe('images', () => {
  it.each(imageFormats)('identifies %s and its size', async (format) => {
    const bytes = await imageFixture({ format, width: 97, height: 31 });
    const expected = { kind: 'image', format, width: 97, height: 31 };
    expect(await probeImage(bytes)).toEqual(expected);
    expect(await probeMedia(bytes)).toEqual(expected);
  });

  it.each(imageFormats)('rejects truncated %s as undecodable_media', async (format) => {
    expect((await mediaErrorOf(probeImage(truncated(await imageFixture({ format }))))).code).toBe('undecodable_media');
  });

  it.each(['png', 'jpeg', 'gif'] as const)('rejects corrupted %s as undecodable_media', async (format) => {
    expect((await mediaErrorOf(probeImage(corrupted(await imageFixture({ format }))))).code).toBe('undecodable_media');
  });

  it('cannot see damage inside a lossy WebP (VP8) payload (documented): it decodes', async () => {
    expect((await probeImage(corrupted(await imageFixture({ format: 'webp' })))).format).toBe('webp');
  });

  it('names unsupported image formats', async () => {
    const bmp = await imageFixture({ format: 'bmp' });
    const viaImage = await mediaErrorOf(probeImage(bmp));
    expect(viaImage.code).toBe('unrecognized_container');
    expect(viaImage.message).toBe('bmp images are not supported (png, jpeg, gif, webp)');
    expect((await mediaErrorOf(probeMedia(bmp))).message).toBe('bmp images are not supported (png, jpeg, gif, webp)');
  });

  it('refuses audio and noise as images', async () => {
    expect((await mediaErrorOf(probeImage(await audioFixture({ kind: 'wav' })))).code).toBe('unrecognized_container');
    expect((await mediaErrorOf(probeImage(randomBytes(2048)))).code).toBe('unrecognized_container');
  });
});

describe('video', () => {
  it.each(containers)('identifies %s with size, rate, frames, duration and audio', async (container) => {
    const probe = await probeVideo(await videoFixture({ container, width: 96, height: 64, fps: 12, seconds: 1, withAudio: true }));
    expect(probe).toMatchObject({ kind: 'video', container, codec: videoCodec[container], width: 96, height: 64, frameRate: 12, frameCount: 12, hasAudio: true });
    expect(Math.abs(Number(probe.durationSeconds) - 1)).toBeLessThanOrEqual(0.11);
  });

  it.each(containers)('identifies silent %s as having no audio, also through probeMedia', async (container) => {
    const probe = await probeMedia(await videoFixture({ container }));
    expect(probe).toMatchObject({ kind: 'video', container, frameCount: 10, hasAudio: false });
  });

  it.each(containers)('rejects truncated %s as undecodable_media', async (container) => {
    expect((await mediaErrorOf(probeVideo(truncated(await videoFixture({ container, withAudio: true }))))).code).toBe('undecodable_media');
  });

  it.each(containers)('rejects corrupted %s as undecodable_media', async (container) => {
    expect((await mediaErrorOf(probeVideo(corrupted(await videoFixture({ container, withAudio: true }))))).code).toBe('undecodable_media');
  });

  it('refuses audio as not_video and noise as unrecognized', async () => {
    expect((await mediaErrorOf(probeVideo(await audioFixture({ kind: 'webm' })))).code).toBe('not_video');
    expect((await mediaErrorOf(probeVideo(randomBytes(8192)))).code).toBe('unrecognized_container');
  });

  it('routes audio through probeMedia to the audio probe', async () => {
    expect(await probeMedia(await audioFixture({ kind: 'ogg-vorbis' }))).toMatchObject({ kind: 'audio', container: 'ogg', codec: 'vorbis' });
  });
});

describe('video header read (nothing decoded)', () => {
  const workWithCap = (maxPixels: number) =>
    new MediaGate({ ...DEFAULT_MEDIA_ENV, maxPixels }).forRequest({ caller: { organizationId: 'org-a' }, signal: new AbortController().signal });

  it.each(containers)('reads %s size, rate, duration and declared frames from the header', async (container) => {
    const header = await readVideoHeader(await videoFixture({ container, width: 64, height: 48, fps: 10, seconds: 1 }));
    expect(header).toMatchObject({ kind: 'video', container, width: 64, height: 48, frameRate: 10, frameCount: 10 });
  });

  it('refuses a frame size past the pixel cap (video_too_large), and allows exactly the cap', async () => {
    const mp4 = await videoFixture({ container: 'mp4', width: 64, height: 48 });
    expect((await mediaErrorOf(readVideoHeader(mp4, { work: workWithCap(64 * 48 - 1) }))).code).toBe('video_too_large');
    await expect(readVideoHeader(mp4, { work: workWithCap(64 * 48) })).resolves.toMatchObject({ width: 64 });
  });
});
