import { attributeSpeakers, indexSpeakers, speakerOf } from './speaker-attribution';
import type { SpeakerTurn } from './transcript.types';

const turn = (speaker: number, start: number, end: number): SpeakerTurn => ({ speaker, start, end });

describe('indexSpeakers', () => {
  it('numbers speakers from 0 in order of first appearance, whatever the labels', () => {
    const turns = indexSpeakers([
      { label: 'SPEAKER_00', start: 2, end: 3 },
      { label: 'SPEAKER_01', start: 0, end: 1 },
      { label: 'SPEAKER_00', start: 4, end: 5 },
      { label: 'SPEAKER_01', start: 1, end: 2 },
    ]);
    expect(turns).toEqual([turn(0, 0, 1), turn(0, 1, 2), turn(1, 2, 3), turn(1, 4, 5)]);
  });
});

describe('speakerOf', () => {
  it('picks the speaker whose turn overlaps the word most', () => {
    expect(speakerOf({ start: 0.8, end: 1.5 }, [turn(0, 0, 1), turn(1, 1, 2)])).toBe(1);
    expect(speakerOf({ start: 0.5, end: 1.2 }, [turn(0, 0, 1), turn(1, 1, 2)])).toBe(0);
  });

  it('adds up the overlap of several turns of one speaker', () => {
    const turns = [turn(1, 0, 1.1), turn(0, 1.1, 1.4), turn(1, 1.4, 3)];
    expect(speakerOf({ start: 0.9, end: 1.7 }, turns)).toBe(1);
  });

  it('breaks an exact tie towards the lower speaker index', () => {
    expect(speakerOf({ start: 0.5, end: 1.5 }, [turn(1, 1, 2), turn(0, 0, 1)])).toBe(0);
  });

  it('gives null to a word that no turn covers, including one that only touches a turn edge', () => {
    expect(speakerOf({ start: 2, end: 2.5 }, [turn(0, 0, 1), turn(1, 3, 4)])).toBeNull();
    expect(speakerOf({ start: 1, end: 1.5 }, [turn(0, 0, 1)])).toBeNull();
    expect(speakerOf({ start: 0, end: 1 }, [])).toBeNull();
  });

  it('gives a zero-length word to the turn containing its instant', () => {
    expect(speakerOf({ start: 1.5, end: 1.5 }, [turn(0, 0, 1), turn(1, 1, 2)])).toBe(1);
    expect(speakerOf({ start: 2.5, end: 2.5 }, [turn(0, 0, 1)])).toBeNull();
  });
});

describe('attributeSpeakers', () => {
  it('keeps every word field and adds the speaker, null when uncovered', () => {
    const words = [
      { word: 'hello', start: 0, end: 0.5 },
      { word: 'there', start: 0.6, end: 0.9 },
      { word: 'uh', start: 1.2, end: 1.3 },
    ];
    expect(attributeSpeakers(words, [turn(0, 0, 0.55), turn(1, 0.55, 1)])).toEqual([
      { word: 'hello', start: 0, end: 0.5, speaker: 0 },
      { word: 'there', start: 0.6, end: 0.9, speaker: 1 },
      { word: 'uh', start: 1.2, end: 1.3, speaker: null },
    ]);
  });
});
