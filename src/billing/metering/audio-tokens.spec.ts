import { audioClipTokens } from './audio-tokens';

describe('audioClipTokens: per_clip + ceil(tokens_per_second x seconds x channels)', () => {
  it.each([
    // per clip, tokens/s, seconds, channels, tokens
    [2, 25, '0', 1, 2],
    [2, 25, '0.04', 1, 3], // exactly 1 token of audio
    [2, 25, '0.041', 1, 4], // a hair over 1 token rounds up
    [2, 25, '0.039', 1, 3],
    [2, 25, '1', 1, 27],
    [2, 25, '10.00', 1, 252],
    [0, 12.5, '0.08', 1, 1],
    [0, 12.5, '0.081', 1, 2],
    [0, 100, '0.07', 1, 7], // binary floats give 7.000000000000001 here; decimals give exactly 7
    [0, 25, '0.000001', 1, 1],
    [2, 25, '1.5', 2, 77], // two output channels bill twice the duration
    [2, 25, '0.25', 2, 15],
  ])('per_clip %i, %p tokens/s, %p s, %i channel(s) -> %i', (perClip, tokensPerSecond, seconds, channels, tokens) => {
    const placeholder = { per_clip: perClip, tokens_per_second: tokensPerSecond, rounding: 'ceil' as const };
    expect(audioClipTokens(placeholder, seconds, channels)).toBe(tokens);
  });
});
