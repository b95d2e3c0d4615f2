import { SEGMENT_MAX_WORDS, simulatedTranscript } from './simulated-transcript';

const burst = (start: number, end: number) => ({ start, end, frequencyHz: 440 });

describe('simulatedTranscript', () => {
  it('names the n-th word after the n-th NATO word and keeps its times', () => {
    const { words, text } = simulatedTranscript([burst(0, 0.5), burst(0.6, 1)], 0);
    expect(words).toEqual([
      { word: 'alpha', start: 0, end: 0.5 },
      { word: 'bravo', start: 0.6, end: 1 },
    ]);
    expect(text).toBe('alpha bravo');
  });

  it('starts a segment after a pause of 0.5 s and spans its words', () => {
    const { segments } = simulatedTranscript([burst(0, 0.5), burst(0.9, 1.2), burst(1.7, 2)], 0.2);
    expect(segments.map((s) => [s.id, s.start, s.end, s.text])).toEqual([
      [0, 0, 1.2, ' alpha bravo'],
      [1, 1.7, 2, ' charlie'],
    ]);
    expect(segments[0]).toMatchObject({ seek: 0, temperature: 0.2, tokens: [1000, 1001] });
  });

  it('starts a segment when one is full', () => {
    const bursts = Array.from({ length: SEGMENT_MAX_WORDS + 1 }, (_, i) => burst(i * 0.3, i * 0.3 + 0.2));
    expect(simulatedTranscript(bursts, 0).segments.map((s) => s.text.trim().split(' ').length)).toEqual([SEGMENT_MAX_WORDS, 1]);
  });

  it('is empty for silence', () => {
    expect(simulatedTranscript([], 0)).toEqual({ text: '', words: [], segments: [] });
  });
});
