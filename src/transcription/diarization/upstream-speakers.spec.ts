import { ApiError } from '../../common/api-error';
import { MAX_DISTINCT_SPEAKERS, MAX_SPEAKER_LABEL_CHARS, readDiarizedJson, readWordSpeakers } from './upstream-speakers';

const base = { text: 'hi there you', reportedAudioTokens: undefined };
const segment = (speaker: unknown, start: number, end: number, text: string) => ({ type: 'transcript.text.segment', id: 's', speaker, start, end, text });

function failure(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

describe('readDiarizedJson', () => {
  it('sorts segments, numbers speakers by first appearance and gives each word its segment speaker', () => {
    const body = { segments: [segment('B', 1, 2, 'you'), segment('A', 0, 1, 'hi there')] };
    const { transcript, speakers } = readDiarizedJson(body, base, 2);
    expect(transcript.segments!.map((s) => [s.text, s.speaker])).toEqual([['hi there', 0], ['you', 1]]);
    expect(transcript.words).toEqual([
      { word: 'hi', start: 0, end: 0.286 },
      { word: 'there', start: 0.286, end: 1 },
      { word: 'you', start: 1, end: 2 },
    ]);
    expect(speakers.perWord).toEqual([0, 0, 1]);
  });

  it('keeps word times inside segments whose times are not on the millisecond grid', () => {
    const { transcript } = readDiarizedJson({ segments: [segment('A', 1.0700000000000001, 1.0700000000000001, 'w')] }, base, 2);
    expect(transcript.words).toEqual([{ word: 'w', start: 1.0700000000000001, end: 1.0700000000000001 }]);
  });

  it('accepts integer labels, the longest label and the most speakers', () => {
    const many = Array.from({ length: MAX_DISTINCT_SPEAKERS - 1 }, (_, i) => segment(i, 0, 0, 'w'));
    const { speakers } = readDiarizedJson({ segments: [segment('x'.repeat(MAX_SPEAKER_LABEL_CHARS), 0, 0, 'w'), ...many] }, base, 1);
    expect(new Set(speakers.perWord).size).toBe(MAX_DISTINCT_SPEAKERS);
  });

  it.each([
    ['no segments', {}],
    ['a segment that is not an object', { segments: [3] }],
    ['an empty label', { segments: [segment('', 0, 1, 'a')] }],
    ['a label too long', { segments: [segment('x'.repeat(MAX_SPEAKER_LABEL_CHARS + 1), 0, 1, 'a')] }],
    ['a fractional label', { segments: [segment(1.5, 0, 1, 'a')] }],
    ['no text', { segments: [segment('A', 0, 1, undefined as unknown as string)] }],
    ['a reversed segment', { segments: [segment('A', 1, 0.5, 'a')] }],
    ['a segment past the audio', { segments: [segment('A', 0, 2.06, 'a')] }],
    ['too many speakers', { segments: Array.from({ length: MAX_DISTINCT_SPEAKERS + 1 }, (_, i) => segment(i, 0, 0, 'w')) }],
  ])('is a 502 speaker failure for %s', (_name, body) => {
    const error = failure(() => readDiarizedJson(body, base, 2));
    expect([error.status, error.code]).toEqual([502, 'speaker_enrichment_failed']);
  });

  it('allows a segment ending within the timing tolerance past the audio', () => {
    expect(() => readDiarizedJson({ segments: [segment('A', 0, 2.05, 'a')] }, base, 2)).not.toThrow();
  });
});

describe('readWordSpeakers', () => {
  it('numbers labels by first appearance and keeps unlabelled words null', () => {
    expect(readWordSpeakers([{ speaker: 'SPEAKER_01' }, { speaker: null }, { speaker: 'SPEAKER_00' }, {}, { speaker: 'SPEAKER_01' }])).toEqual([0, null, 1, null, 0]);
  });

  it('accepts no words at all', () => {
    expect(readWordSpeakers([])).toEqual([]);
  });

  it.each([
    ['no words list', undefined],
    ['an upstream that ignored the flag', [{ word: 'a' }, { word: 'b' }]],
    ['a label of the wrong type', [{ speaker: true }]],
    ['too many speakers', Array.from({ length: MAX_DISTINCT_SPEAKERS + 1 }, (_, i) => ({ speaker: i }))],
  ])('is a 502 speaker failure for %s', (_name, words) => {
    const error = failure(() => readWordSpeakers(words));
    expect([error.status, error.code]).toEqual([502, 'speaker_enrichment_failed']);
  });

  it('accepts all words explicitly unlabelled (null)', () => {
    expect(readWordSpeakers([{ speaker: null }])).toEqual([null]);
  });
});
