import { diarizedSegments, wordsWithSpeakers } from './diarizing-transcriber';

// Pitch >= 600 Hz is SPEAKER_00; the third sound is too short for a turn.
const bursts = [
  { start: 0.2, end: 0.7, frequencyHz: 440 },
  { start: 1, end: 1.6, frequencyHz: 880 },
  { start: 2.2, end: 2.3, frequencyHz: 440 },
  { start: 2.9, end: 3.4, frequencyHz: 440 },
];
const words = bursts.map((b, i) => ({ word: ['alpha', 'bravo', 'charlie', 'delta'][i], start: b.start, end: b.end }));

describe('the simulated transcriber diarizing itself', () => {
  it('labels words, leaving the too-short one null', () => {
    expect(wordsWithSpeakers(words, bursts, 2).map((w) => w.speaker)).toEqual(['SPEAKER_01', 'SPEAKER_00', null, 'SPEAKER_01']);
    expect(wordsWithSpeakers(words, bursts, 1).map((w) => w.speaker)).toEqual(['SPEAKER_00', 'SPEAKER_00', null, 'SPEAKER_00']);
  });

  it('answers OpenAI diarized segments named A, B in order of appearance, short words joining the segment before', () => {
    expect(diarizedSegments(words, bursts, 2).map((s) => [s.speaker, s.text, s.start, s.end])).toEqual([
      ['A', 'alpha', 0.2, 0.7],
      ['B', 'bravo charlie', 1, 2.3],
      ['A', 'delta', 2.9, 3.4],
    ]);
  });

  it('gives a leading short word the first speaker heard', () => {
    const lead = [{ start: 0, end: 0.1, frequencyHz: 880 }, bursts[0]];
    const leadWords = [{ word: 'alpha', start: 0, end: 0.1 }, { ...words[0], word: 'bravo' }];
    expect(diarizedSegments(leadWords, lead, 2).map((s) => [s.speaker, s.text])).toEqual([['A', 'alpha bravo']]);
  });
});
