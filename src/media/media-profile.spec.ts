import { AudioProfile, ImageProfile, VideoProfile } from '../catalog/catalog.types';
import { decideMedia, mediaRejectionError } from './media-profile';
import { AudioProbe, ImageProbe, VideoProbe } from './media.types';

const audio = (overrides: Partial<AudioProbe> = {}): AudioProbe => ({
  kind: 'audio', container: 'wav', codec: 'pcm_s16le', durationSeconds: '1', sampleRate: 16000, channels: 1, ...overrides,
});
const image = (overrides: Partial<ImageProbe> = {}): ImageProbe => ({ kind: 'image', format: 'png', width: 640, height: 480, ...overrides });
const video = (overrides: Partial<VideoProbe> = {}): VideoProbe => ({
  kind: 'video', container: 'mp4', codec: 'h264', width: 1280, height: 720, frameRate: 30, durationSeconds: '2', frameCount: 60, hasAudio: false, ...overrides,
});

const wavTarget = { codec: 'pcm_s16le', container: 'wav', sample_rate: 16000, channels: 1 };
const speechProfile: AudioProfile = {
  accepts: { containers: ['wav', 'mp3'], sample_rate: [16000, 48000], channels: [1, 2] },
  converts_to: null,
};

describe('decideMedia: profile presence', () => {
  it('rejects when the model has no profile for the kind', () => {
    expect(decideMedia('audio', audio(), null)).toEqual({ action: 'reject', reason: 'This model does not accept audio input' });
    expect(decideMedia('image', image(), undefined)).toEqual({ action: 'reject', reason: 'This model does not accept image input' });
  });

  it('accepts nothing when accepts is null: converts if it can, else rejects', () => {
    expect(decideMedia('audio', audio(), { accepts: null, converts_to: wavTarget })).toEqual({ action: 'convert', target: wavTarget });
    const decision = decideMedia('audio', audio(), { accepts: null, converts_to: null });
    expect(decision).toEqual({ action: 'reject', reason: 'This model does not accept this audio: the model takes no audio as sent' });
  });

  it('treats empty sets and null ranges as unconstrained', () => {
    const open: AudioProfile = { accepts: { containers: [], sample_rate: null, channels: [] }, converts_to: null };
    expect(decideMedia('audio', audio({ container: 'aiff', sampleRate: 8000, channels: 6 }), open)).toEqual({ action: 'accept' });
    expect(decideMedia('audio', audio(), { accepts: {}, converts_to: null })).toEqual({ action: 'accept' });
  });

  it('refuses a probe of another kind', () => {
    expect(() => decideMedia('audio', image() as unknown as AudioProbe, speechProfile)).toThrow(TypeError);
  });
});

describe('decideMedia: audio axes', () => {
  it.each([16000, 48000, 22050])('accepts sample rate %i inside the inclusive range', (sampleRate) => {
    expect(decideMedia('audio', audio({ sampleRate }), speechProfile)).toEqual({ action: 'accept' });
  });

  it.each([15999, 48001])('rejects sample rate %i just outside the range', (sampleRate) => {
    const decision = decideMedia('audio', audio({ sampleRate }), speechProfile);
    expect(decision).toEqual({ action: 'reject', reason: `This model does not accept this audio: sample rate ${sampleRate} Hz is outside 16000-48000 Hz` });
  });

  it('lists every unmet axis in the reason', () => {
    const decision = decideMedia('audio', audio({ container: 'ogg', sampleRate: 8000, channels: 6 }), speechProfile);
    expect(decision).toEqual({
      action: 'reject',
      reason: 'This model does not accept this audio: container ogg is not one of wav, mp3; sample rate 8000 Hz is outside 16000-48000 Hz; channel count 6 is not one of 1, 2',
    });
  });

  it('does not satisfy a constrained axis the probe left unknown', () => {
    expect(decideMedia('audio', audio({ sampleRate: undefined }), speechProfile)).toEqual({
      action: 'reject', reason: 'This model does not accept this audio: sample rate is unknown',
    });
    expect(decideMedia('audio', audio({ channels: undefined }), speechProfile)).toEqual({
      action: 'reject', reason: 'This model does not accept this audio: channel count is unknown',
    });
  });

  it('leaves an unknown axis alone when the profile does not constrain it', () => {
    const containersOnly: AudioProfile = { accepts: { containers: ['wav'] }, converts_to: null };
    expect(decideMedia('audio', audio({ sampleRate: undefined, channels: undefined }), containersOnly)).toEqual({ action: 'accept' });
  });

  it('converts instead of rejecting when the profile names a target', () => {
    const converting: AudioProfile = { ...speechProfile, converts_to: wavTarget };
    expect(decideMedia('audio', audio({ container: 'flac' }), converting)).toEqual({ action: 'convert', target: wavTarget });
    expect(decideMedia('audio', audio({ sampleRate: undefined }), converting)).toEqual({ action: 'convert', target: wavTarget });
    expect(decideMedia('audio', audio(), converting)).toEqual({ action: 'accept' });
  });
});

describe('decideMedia: image axes', () => {
  const profile: ImageProfile = { accepts: { formats: ['png', 'jpeg'], max_width: 1024, max_height: 768 }, converts_to: null };

  it('accepts sizes up to and including the maxima', () => {
    expect(decideMedia('image', image({ width: 1024, height: 768 }), profile)).toEqual({ action: 'accept' });
  });

  it('rejects one pixel over either maximum', () => {
    expect(decideMedia('image', image({ width: 1025 }), profile)).toEqual({
      action: 'reject', reason: 'This model does not accept this image: width 1025 px exceeds 1024 px',
    });
    expect(decideMedia('image', image({ height: 769 }), profile)).toEqual({
      action: 'reject', reason: 'This model does not accept this image: height 769 px exceeds 768 px',
    });
  });

  it('checks the format and converts when it can', () => {
    const target = { format: 'jpeg', max_width: 512, max_height: null };
    expect(decideMedia('image', image({ format: 'webp' }), profile)).toMatchObject({ action: 'reject' });
    expect(decideMedia('image', image({ format: 'webp' }), { ...profile, converts_to: target })).toEqual({ action: 'convert', target });
  });
});

describe('decideMedia: video axes', () => {
  const profile: VideoProfile = { accepts: { containers: ['mp4', 'webm'], max_width: 1920, max_height: 1080, frame_rate: [24, 30] }, converts_to: null };

  it.each([24, 30, 29.97])('accepts frame rate %d at or inside the bounds', (frameRate) => {
    expect(decideMedia('video', video({ frameRate }), profile)).toEqual({ action: 'accept' });
  });

  it.each([
    [23.976, 'frame rate 23.976 fps is outside 24-30 fps'],
    [30.001, 'frame rate 30.001 fps is outside 24-30 fps'],
    [undefined, 'frame rate is unknown'],
  ])('rejects frame rate %s', (frameRate, problem) => {
    expect(decideMedia('video', video({ frameRate }), profile)).toEqual({ action: 'reject', reason: `This model does not accept this video: ${problem}` });
  });

  it('checks container and size', () => {
    const decision = decideMedia('video', video({ container: 'avi', width: 3840, height: 2160 }), profile);
    expect(decision).toEqual({
      action: 'reject',
      reason: 'This model does not accept this video: container avi is not one of mp4, webm; width 3840 px exceeds 1920 px; height 2160 px exceeds 1080 px',
    });
  });

  it('converts to the target when one is given', () => {
    const target = { video_codec: 'h264', container: 'mp4', max_width: 1280, max_height: 720, keep_audio: false };
    expect(decideMedia('video', video({ container: 'mkv' }), { ...profile, converts_to: target })).toEqual({ action: 'convert', target });
  });
});

describe('mediaRejectionError', () => {
  it('is a 400 unsupported_media carrying the reason and param', () => {
    const error = mediaRejectionError({ reason: 'This model does not accept audio input' }, 'file');
    expect(error.toBody()).toEqual({
      error: { message: 'This model does not accept audio input', type: 'invalid_request_error', param: 'file', code: 'unsupported_media' },
    });
    expect(error.status).toBe(400);
  });
});
