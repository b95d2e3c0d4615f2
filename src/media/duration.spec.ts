import { normaliseSeconds, pcmDurationSeconds, secondsFromSamples } from './duration';

describe('secondsFromSamples', () => {
  it('divides exactly and rounds half-up to microseconds', () => {
    expect(secondsFromSamples(16000, 16000)).toBe('1');
    expect(secondsFromSamples(16175, 16000)).toBe('1.010938');
    expect(secondsFromSamples(1, 44100)).toBe('0.000023');
    expect(secondsFromSamples(1, 2_000_000)).toBe('0.000001');
    expect(secondsFromSamples(0, 8000)).toBe('0');
  });

  it('refuses a non-positive sample rate', () => {
    expect(() => secondsFromSamples(1, 0)).toThrow(RangeError);
  });
});

describe('normaliseSeconds', () => {
  it("strips ffprobe's trailing zeros", () => {
    expect(normaliseSeconds('1.000000')).toBe('1');
    expect(normaliseSeconds('1.0213330')).toBe('1.021333');
  });
});

describe('pcmDurationSeconds', () => {
  it('derives duration from the byte count and layout', () => {
    expect(pcmDurationSeconds(48000, { sampleRate: 24000, sampleFormat: 'pcm16', channels: 1 })).toBe('1');
    expect(pcmDurationSeconds(144000, { sampleRate: 24000, sampleFormat: 'pcm24', channels: 2 })).toBe('1');
    expect(pcmDurationSeconds(96000, { sampleRate: 16000, sampleFormat: 'pcm_f32', channels: 1 })).toBe('1.5');
  });

  it('ignores a partial trailing frame', () => {
    expect(pcmDurationSeconds(48001, { sampleRate: 24000, sampleFormat: 'pcm16', channels: 1 })).toBe('1');
    expect(pcmDurationSeconds(3, { sampleRate: 24000, sampleFormat: 'pcm16', channels: 2 })).toBe('0');
  });

  it('refuses an impossible channel count', () => {
    expect(() => pcmDurationSeconds(4, { sampleRate: 24000, sampleFormat: 'pcm16', channels: 0 })).toThrow(RangeError);
  });
});
