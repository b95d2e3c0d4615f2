import { MIN_TURN_SECONDS, simulatedTurns } from './simulated-turns';

const burst = (start: number, end: number, frequencyHz: number) => ({ start, end, frequencyHz });

describe('simulatedTurns', () => {
  it('labels higher tones SPEAKER_00 and lower ones SPEAKER_01', () => {
    expect(simulatedTurns([burst(0, 0.5, 440), burst(1, 1.5, 880)], 2)).toEqual([
      { speaker: 'SPEAKER_01', start: 0, end: 0.5 },
      { speaker: 'SPEAKER_00', start: 1, end: 1.5 },
    ]);
  });

  it('gives sounds shorter than the minimum turn no turn', () => {
    expect(simulatedTurns([burst(0, MIN_TURN_SECONDS - 0.01, 440)], 2)).toEqual([]);
  });

  it('merges close turns of the same speaker only', () => {
    expect(simulatedTurns([burst(0, 0.5, 440), burst(0.7, 1, 440), burst(2, 2.5, 440)], 2)).toEqual([
      { speaker: 'SPEAKER_01', start: 0, end: 1 },
      { speaker: 'SPEAKER_01', start: 2, end: 2.5 },
    ]);
  });

  it('puts everyone in one speaker when asked for one', () => {
    expect(simulatedTurns([burst(0, 0.5, 440), burst(1, 1.5, 880)], 1).map((t) => t.speaker)).toEqual(['SPEAKER_00', 'SPEAKER_00']);
  });
});
