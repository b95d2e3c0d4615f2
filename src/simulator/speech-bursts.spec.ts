import { findBursts } from './speech-bursts';

const RATE = 16_000;

function audio(spans: { hz: number | null; seconds: number }[]): Int16Array {
  const samples: number[] = [];
  for (const { hz, seconds } of spans) {
    for (let i = 0; i < Math.round(seconds * RATE); i++) samples.push(hz === null ? 0 : Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / RATE)));
  }
  return Int16Array.from(samples);
}

describe('findBursts', () => {
  it('finds each tone between silences with its times and pitch', () => {
    const bursts = findBursts(audio([{ hz: null, seconds: 0.2 }, { hz: 440, seconds: 0.5 }, { hz: null, seconds: 0.3 }, { hz: 880, seconds: 0.4 }]), RATE);
    expect(bursts.map(({ start, end }) => [start, end])).toEqual([
      [0.2, 0.7],
      [1, 1.4],
    ]);
    expect(bursts[0].frequencyHz).toBeCloseTo(440, -1);
    expect(bursts[1].frequencyHz).toBeCloseTo(880, -1);
  });

  it('bridges gaps of up to 50 ms inside one word', () => {
    expect(findBursts(audio([{ hz: 440, seconds: 0.3 }, { hz: null, seconds: 0.04 }, { hz: 440, seconds: 0.3 }]), RATE)).toHaveLength(1);
    expect(findBursts(audio([{ hz: 440, seconds: 0.3 }, { hz: null, seconds: 0.1 }, { hz: 440, seconds: 0.3 }]), RATE)).toHaveLength(2);
  });

  it('ignores clicks shorter than 30 ms and hears nothing in silence', () => {
    expect(findBursts(audio([{ hz: null, seconds: 0.2 }, { hz: 440, seconds: 0.02 }, { hz: null, seconds: 0.2 }]), RATE)).toEqual([]);
    expect(findBursts(audio([{ hz: null, seconds: 1 }]), RATE)).toEqual([]);
  });

  it('ends a word that runs to the end of the audio at the last sample', () => {
    const bursts = findBursts(audio([{ hz: null, seconds: 0.1 }, { hz: 440, seconds: 0.255 }]), RATE);
    expect(bursts.map(({ start, end }) => [start, end])).toEqual([[0.1, 0.355]]);
  });
});
