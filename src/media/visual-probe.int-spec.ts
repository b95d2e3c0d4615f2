// Images and video through real ffprobe: identification from the bytes, sizes, frame counts,
// and damaged files refused.
import { audioFixture, corrupted, imageFixture, ImageFixtureFormat, randomBytes, truncated, videoFixture, VideoFixtureContainer } from '../../test/fixtures/media/generate';
import { probeImage } from './image-probe';
import { MediaError } from './media-error';
import { probeMedia } from './media-probe';
import { probeVideo } from './video-probe';

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
