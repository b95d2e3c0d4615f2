// Transcoding round trips through the real ffmpeg: every output is identified again from its bytes.
import { ApiError } from '../common/api-error';
import { audioFixture, imageFixture, lyingFile, videoFixture } from '../../test/fixtures/media/generate';
import { identifyAudio } from './audio-probe';
import { UnsupportedTargetError } from './ffmpeg-targets';
import { probeImage } from './image-probe';
import { assertWithinMediaLimit, MAX_MEDIA_BYTES } from './media-limits';
import { toWavOrMp3, transcodeAudio, transcodeImage, transcodeVideo } from './transcode';
import { probeVideo } from './video-probe';
import { parseWavHeader } from './wav-header';

describe('transcodeAudio', () => {
  it('converts stereo 44.1 kHz FLAC to 16 kHz mono PCM WAV without changing its length', async () => {
    const source = await audioFixture({ kind: 'flac', sampleRate: 44100, channels: 2 });
    const wav = await transcodeAudio(source, { codec: 'pcm_s16le', container: 'wav', sample_rate: 16000, channels: 1 });
    expect(await identifyAudio(wav)).toEqual({ kind: 'audio', container: 'wav', codec: 'pcm_s16le', durationSeconds: '1', sampleRate: 16000, channels: 1 });
    expect(parseWavHeader(wav).dataOffset).toBe(44);
  });

  it.each([
    [{ codec: 'mp3', container: 'mp3' }, 'mp3', 'mp3'],
    [{ codec: 'aac', container: 'm4a' }, 'm4a', 'aac'],
    [{ codec: 'aac', container: 'aac' }, 'aac', 'aac'],
    [{ codec: 'opus', container: 'ogg' }, 'ogg', 'opus'],
    [{ codec: 'vorbis', container: 'ogg' }, 'ogg', 'vorbis'],
    [{ codec: 'flac', container: 'flac' }, 'flac', 'flac'],
    [{ codec: 'pcm_s16be', container: 'aiff' }, 'aiff', 'pcm_s16be'],
    [{ codec: 'opus', container: 'webm' }, 'webm', 'opus'],
  ])('writes %j that identifies as %s/%s', async (target, container, codec) => {
    const output = await transcodeAudio(await audioFixture({ kind: 'wav' }), target);
    const probe = await identifyAudio(output);
    expect(probe).toMatchObject({ container, codec });
    expect(Math.abs(Number(probe.durationSeconds) - 1)).toBeLessThanOrEqual(0.1);
  });

  it('is deterministic for the same input', async () => {
    const source = await audioFixture({ kind: 'ogg-vorbis' });
    const target = { codec: 'pcm_s16le', container: 'wav' };
    expect((await transcodeAudio(source, target)).equals(await transcodeAudio(source, target))).toBe(true);
  });

  it('rejects an unsupported target as a configuration error', async () => {
    await expect(transcodeAudio(await audioFixture({ kind: 'wav' }), { codec: 'wma', container: 'wav' })).rejects.toBeInstanceOf(UnsupportedTargetError);
  });
});

describe('toWavOrMp3 (captioning)', () => {
  it.each(['wav', 'mp3'] as const)('passes %s as sent', async (kind) => {
    const bytes = await audioFixture({ kind });
    const result = await toWavOrMp3(bytes);
    expect(result).toMatchObject({ container: kind, transcoded: false });
    expect(result.bytes).toBe(bytes);
  });

  it.each(['flac', 'ogg-opus', 'ogg-vorbis', 'm4a', 'aac', 'aiff', 'webm'] as const)('turns %s into 16-bit PCM WAV at the source rate', async (kind) => {
    const result = await toWavOrMp3(await audioFixture({ kind, sampleRate: 24000 }));
    const wav = await identifyAudio(result.bytes);
    expect(result).toMatchObject({ container: 'wav', transcoded: true });
    expect(wav).toMatchObject({ container: 'wav', codec: 'pcm_s16le', sampleRate: result.source.sampleRate, channels: 1 });
    expect(Math.abs(Number(wav.durationSeconds) - Number(result.source.durationSeconds))).toBeLessThanOrEqual(0.001);
  });

  it('follows the bytes of a lying file (FLAC named .wav) and transcodes it', async () => {
    const result = await toWavOrMp3((await lyingFile()).bytes, { sampleRate: 16000, channels: 1 });
    expect(result.source.container).toBe('flac');
    expect(await identifyAudio(result.bytes)).toMatchObject({ container: 'wav', sampleRate: 16000, channels: 1, durationSeconds: '1' });
  });
});

describe('the 8 MiB limit after transcoding', () => {
  // 16-bit mono WAV is a 44-byte header plus 2 bytes a sample.
  const samplesFilling = (bytes: number): number => (bytes - 44) / 2;

  it('accepts a transcoded clip of exactly 8 MiB and refuses one sample more with 413', async () => {
    const atLimit = await toWavOrMp3(await audioFixture({ kind: 'flac', samples: samplesFilling(MAX_MEDIA_BYTES), sampleRate: 48000 }));
    expect(atLimit.bytes.length).toBe(MAX_MEDIA_BYTES);
    expect(() => assertWithinMediaLimit(atLimit.bytes)).not.toThrow();

    const over = await toWavOrMp3(await audioFixture({ kind: 'flac', samples: samplesFilling(MAX_MEDIA_BYTES) + 1, sampleRate: 48000 }));
    expect(over.bytes.length).toBe(MAX_MEDIA_BYTES + 2);
    expect(() => assertWithinMediaLimit(over.bytes)).toThrow(ApiError);
    expect(() => assertWithinMediaLimit(over.bytes)).toThrow(expect.objectContaining({ status: 413, code: 'media_too_large' }));
  });
});

describe('transcodeImage', () => {
  it('converts format and fits the box keeping the aspect ratio', async () => {
    const source = await imageFixture({ format: 'png', width: 640, height: 480 });
    const jpeg = await transcodeImage(source, { format: 'jpeg', max_width: 320, max_height: null }, { width: 640, height: 480 });
    expect(await probeImage(jpeg)).toEqual({ kind: 'image', format: 'jpeg', width: 320, height: 240 });
  });

  it.each([
    ['webp', 'png'], ['gif', 'webp'], ['jpeg', 'gif'], ['png', 'webp'],
  ] as const)('converts %s to %s without upscaling', async (from, to) => {
    const output = await transcodeImage(await imageFixture({ format: from, width: 64, height: 48 }), { format: to, max_width: 1000, max_height: 1000 }, { width: 64, height: 48 });
    expect(await probeImage(output)).toEqual({ kind: 'image', format: to, width: 64, height: 48 });
  });
});

describe('transcodeVideo', () => {
  it('re-encodes WebM to H.264 MP4 within the box, keeping audio by default', async () => {
    const source = await videoFixture({ container: 'webm', width: 96, height: 64, withAudio: true });
    const output = await transcodeVideo(source, { video_codec: 'h264', container: 'mp4', max_width: 48 }, { width: 96, height: 64, hasAudio: true });
    expect(await probeVideo(output)).toMatchObject({ container: 'mp4', codec: 'h264', width: 48, height: 32, frameCount: 10, hasAudio: true });
  });

  it('drops audio when keep_audio is false', async () => {
    const source = await videoFixture({ container: 'mp4', withAudio: true });
    const output = await transcodeVideo(source, { video_codec: 'vp9', container: 'webm', keep_audio: false }, { width: 64, height: 48, hasAudio: true });
    expect(await probeVideo(output)).toMatchObject({ container: 'webm', codec: 'vp9', width: 64, height: 48, hasAudio: false });
  });

  it.each([
    ['mpeg4', 'avi'], ['vp8', 'mkv'], ['hevc', 'mov'],
  ])('writes %s in %s', async (videoCodec, container) => {
    const output = await transcodeVideo(await videoFixture({ container: 'mkv' }), { video_codec: videoCodec, container }, { width: 64, height: 48, hasAudio: false });
    expect(await probeVideo(output)).toMatchObject({ container, codec: videoCodec, frameCount: 10 });
  });
});
