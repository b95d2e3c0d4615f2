import { ApiError } from '../common/api-error';
import { enrichTranscript } from './enrich-transcript';
import { planTranscription, TranscriptionOptions } from './transcription-plan';
import type { UpstreamTranscript } from './transcript.types';

const plan = (overrides: Partial<TranscriptionOptions>) => planTranscription({ format: 'verbose_json', speakerLabels: false, ...overrides });

const transcript: UpstreamTranscript = {
  text: 'alpha bravo',
  words: [
    { word: 'alpha', start: 0, end: 0.5 },
    { word: 'bravo', start: 1, end: 1.5 },
  ],
  segments: [{ id: 0, start: 0, end: 1.5, text: ' alpha bravo', seek: 0 }],
};

function failure(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

describe('enrichTranscript', () => {
  it('passes segments with every upstream field and words without speakers', () => {
    expect(enrichTranscript(plan({}), transcript, 2)).toEqual({ text: 'alpha bravo', segments: transcript.segments, words: transcript.words });
  });

  it('leaves words out when the plan drops them', () => {
    expect(enrichTranscript(plan({ granularities: ['segment'] }), transcript, 2).words).toBeUndefined();
  });

  it('does not need any timing for plain json', () => {
    const result = enrichTranscript(plan({ format: 'json' }), { text: 'x' }, 2);
    expect(result).toEqual({ text: 'x', segments: [] });
  });

  it('attributes speakers, null for a word outside every turn', () => {
    const turns = [{ speaker: 0, start: 0, end: 0.6 }];
    const result = enrichTranscript(plan({ speakerLabels: true }), transcript, 2, turns);
    expect(result.words).toEqual([
      { word: 'alpha', start: 0, end: 0.5, speaker: 0 },
      { word: 'bravo', start: 1, end: 1.5, speaker: null },
    ]);
  });

  it('takes the upstream speaker of each word, keeping only the word fields', () => {
    const labelled = { ...transcript, words: transcript.words!.map((w) => ({ ...w, probability: 0.9 })) };
    const result = enrichTranscript(plan({ speakerLabels: true }), labelled, 2, { perWord: [1, null] });
    expect(result.words).toEqual([
      { word: 'alpha', start: 0, end: 0.5, speaker: 1 },
      { word: 'bravo', start: 1, end: 1.5, speaker: null },
    ]);
  });

  it('is a 502 speaker failure when per-word speakers do not match the words', () => {
    const error = failure(() => enrichTranscript(plan({ speakerLabels: true }), transcript, 2, { perWord: [0] }));
    expect([error.status, error.code]).toEqual([502, 'speaker_enrichment_failed']);
  });

  it('checks word timings before taking per-word speakers', () => {
    const error = failure(() => enrichTranscript(plan({ speakerLabels: true }), transcript, 1.2, { perWord: [0, 0] }));
    expect([error.status, error.code]).toEqual([502, 'timing_enrichment_failed']);
  });

  it('is a 502 timing failure when needed word timings are missing', () => {
    const error = failure(() => enrichTranscript(plan({}), { ...transcript, words: undefined }, 2));
    expect([error.status, error.code]).toEqual([502, 'timing_enrichment_failed']);
    expect(error.message).toMatch(/no word timings/);
  });

  it('is a 502 timing failure when needed segment timings are missing', () => {
    const error = failure(() => enrichTranscript(plan({ format: 'srt' }), { text: 'x' }, 2));
    expect([error.status, error.code]).toEqual([502, 'timing_enrichment_failed']);
  });

  it('is a 502 timing failure when words lie outside the audio', () => {
    const error = failure(() => enrichTranscript(plan({}), transcript, 1.2));
    expect([error.status, error.code]).toEqual([502, 'timing_enrichment_failed']);
  });

  it('is a 502 timing failure when words are not monotonic, even if they are only used for speakers', () => {
    const shuffled = { ...transcript, words: [...transcript.words!].reverse(), segments: transcript.segments };
    const error = failure(() => enrichTranscript(plan({ speakerLabels: true }), shuffled, 2, []));
    expect([error.status, error.code]).toEqual([502, 'timing_enrichment_failed']);
  });
});
