// Real ffmpeg/ffprobe against generated clips. Durations: lossless containers are exact; lossy
// codecs add priming/padding in whole frames, so they must land within 0.1 s of the tone's length.
import { audioFixture, AudioFixtureKind, corrupted, imageFixture, lyingFile, randomBytes, truncated, videoFixture } from '../../test/fixtures/media/generate';
import { identifyAudio } from './audio-probe';
import { MediaError } from './media-error';
import { transcodeAudio } from './transcode';

const LOSSY_TOLERANCE_SECONDS = 0.1;

const expected: Record<Exclude<AudioFixtureKind, 'mka'>, { container: string; codec: string; exact: boolean }> = {
  wav: { container: 'wav', codec: 'pcm_s16le', exact: true },
  mp3: { container: 'mp3', codec: 'mp3', exact: false },
  flac: { container: 'flac', codec: 'flac', exact: true },
  'ogg-opus': { container: 'ogg', codec: 'opus', exact: false },
  'ogg-vorbis': { container: 'ogg', codec: 'vorbis', exact: false },
  m4a: { container: 'm4a', codec: 'aac', exact: false },
  aac: { container: 'aac', codec: 'aac', exact: false },
  aiff: { container: 'aiff', codec: 'pcm_s16be', exact: true },
  webm: { container: 'webm', codec: 'opus', exact: false },
};
const kinds = Object.keys(expected) as (keyof typeof expected)[];

async function mediaErrorOf(work: Promise<unknown>): Promise<MediaError> {
  const error = await work.then(() => null, (caught: unknown) => caught);
  if (!(error instanceof MediaError)) throw new Error(`expected a MediaError, got ${String(error)}`);
  return error;
}

describe('identifyAudio on every container', () => {
  it.each(kinds)('identifies %s from its bytes and measures it', async (kind) => {
    const probe = await identifyAudio(await audioFixture({ kind }));
    expect(probe).toMatchObject({ kind: 'audio', container: expected[kind].container, codec: expected[kind].codec, channels: 1 });
    expect(probe.sampleRate).toBe(expected[kind].codec === 'opus' ? 48000 : 16000);
    if (expected[kind].exact) expect(probe.durationSeconds).toBe('1');
    else expect(Math.abs(Number(probe.durationSeconds) - 1)).toBeLessThanOrEqual(LOSSY_TOLERANCE_SECONDS);
  });

  it.each(['flac', 'ogg-vorbis', 'mp3'] as const)('reports stereo 44.1 kHz %s as such', async (kind) => {
    const probe = await identifyAudio(await audioFixture({ kind, seconds: 0.5, sampleRate: 44100, channels: 2 }));
    expect(probe).toMatchObject({ sampleRate: 44100, channels: 2 });
    expect(Math.abs(Number(probe.durationSeconds) - 0.5)).toBeLessThanOrEqual(LOSSY_TOLERANCE_SECONDS);
  });

  it('measures an exact sample count to the microsecond', async () => {
    const probe = await identifyAudio(await audioFixture({ kind: 'flac', samples: 22051, sampleRate: 44100 }));
    expect(probe.durationSeconds).toBe('0.500023');
  });

  it('identifies a lying file by its bytes: FLAC named and labelled WAV', async () => {
    const lie = await lyingFile();
    expect(lie.filename).toBe('clip.wav');
    expect((await identifyAudio(lie.bytes)).container).toBe('flac');
  });

  it('ignores cover art, which ffprobe lists as a video stream', async () => {
    const probe = await identifyAudio(await audioFixture({ kind: 'mp3', coverArt: true }));
    expect(probe.container).toBe('mp3');
  });
});

describe('identifyAudio refuses damaged clips', () => {
  it.each(kinds)('rejects truncated %s as undecodable_media', async (kind) => {
    const error = await mediaErrorOf(identifyAudio(truncated(await audioFixture({ kind }))));
    expect(error.code).toBe('undecodable_media');
    expect(error.status).toBe(400);
  });

  it.each([
    ['mp3', /^The mp3 file is truncated: it declares 1\.08 s but only 0\.\d+ s decode$/],
    ['aiff', /^The aiff file is truncated: it declares 1 s but only 0\.\d+ s decode$/],
    ['wav', /^The WAV file is truncated: its data chunk declares 32000 bytes but 19\d{3} are present$/],
  ] as const)('catches %s cut short, which decodes quietly, by its declared length', async (kind, message) => {
    expect((await mediaErrorOf(identifyAudio(truncated(await audioFixture({ kind }))))).message).toMatch(message);
  });

  it.each(kinds.filter((kind) => !['wav', 'aiff'].includes(kind)))('rejects corrupted %s as undecodable_media', async (kind) => {
    expect((await mediaErrorOf(identifyAudio(corrupted(await audioFixture({ kind }))))).code).toBe('undecodable_media');
  });

  it.each(['wav', 'aiff'] as const)('cannot see damage inside raw PCM samples of %s (documented): it decodes as noise', async (kind) => {
    expect((await identifyAudio(corrupted(await audioFixture({ kind })))).durationSeconds).toBe('1');
  });

  it('catches an m4a cut after a front index, which decodes quietly short', async () => {
    const faststart = await transcodeAudio(await audioFixture({ kind: 'flac', seconds: 2 }), { codec: 'aac', container: 'm4a' });
    expect((await identifyAudio(faststart)).container).toBe('m4a');
    const error = await mediaErrorOf(identifyAudio(truncated(faststart, 0.5)));
    expect(error.code).toBe('undecodable_media');
  });
});

describe('identifyAudio refuses what is not audio', () => {
  it('calls random bytes an unrecognized container', async () => {
    const error = await mediaErrorOf(identifyAudio(randomBytes(4096)));
    expect(error.code).toBe('unrecognized_container');
    expect(error.message).toContain('not a recognised media container');
  });

  it('calls text an unrecognized container', async () => {
    expect((await mediaErrorOf(identifyAudio(Buffer.from('{"not": "audio", "just": "json text here"}')))).code).toBe('unrecognized_container');
  });

  it('refuses an image as not_audio', async () => {
    const error = await mediaErrorOf(identifyAudio(await imageFixture({ format: 'png' })));
    expect(error.code).toBe('not_audio');
    expect(error.message).toBe('The media is an image (png), not audio');
  });

  it('refuses a video, even one with a soundtrack, as not_audio', async () => {
    const error = await mediaErrorOf(identifyAudio(await videoFixture({ container: 'mp4', withAudio: true })));
    expect(error.code).toBe('not_audio');
    expect(error.message).toContain('h264 video');
  });

  it('refuses Matroska (not WebM) audio as an unsupported container', async () => {
    const error = await mediaErrorOf(identifyAudio(await audioFixture({ kind: 'mka' })));
    expect(error.code).toBe('unrecognized_container');
    expect(error.message).toBe('Audio in matroska,webm is not a supported container (wav, mp3, flac, ogg, m4a, aac, aiff, webm)');
  });
});
