import { ApiError } from '../common/api-error';
import { planTranscription, TranscriptionOptions } from './transcription-plan';

const options = (overrides: Partial<TranscriptionOptions>): TranscriptionOptions => ({ format: 'json', speakerLabels: false, ...overrides });

function rejection(overrides: Partial<TranscriptionOptions>): ApiError {
  try {
    planTranscription(options(overrides));
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a rejection');
}

describe('planTranscription', () => {
  it('asks for segment timings only where segments or cues are rendered', () => {
    expect(planTranscription(options({ format: 'json' })).needsSegmentTimings).toBe(false);
    expect(planTranscription(options({ format: 'text' })).needsSegmentTimings).toBe(false);
    for (const format of ['verbose_json', 'srt', 'vtt'] as const) {
      expect(planTranscription(options({ format })).needsSegmentTimings).toBe(true);
    }
  });

  it('returns words on verbose_json without a granularity list or with word in it', () => {
    expect(planTranscription(options({ format: 'verbose_json' })).returnWords).toBe(true);
    expect(planTranscription(options({ format: 'verbose_json', granularities: ['word'] })).returnWords).toBe(true);
    expect(planTranscription(options({ format: 'verbose_json', granularities: ['segment', 'word'] })).returnWords).toBe(true);
  });

  it('drops words when a granularity list leaves word out', () => {
    const plan = planTranscription(options({ format: 'verbose_json', granularities: ['segment'] }));
    expect(plan).toMatchObject({ returnWords: false, needsWordTimings: false, needsSegmentTimings: true });
  });

  it('never returns words outside verbose_json', () => {
    for (const format of ['json', 'text', 'srt', 'vtt'] as const) {
      expect(planTranscription(options({ format, granularities: ['word'] }))).toMatchObject({ returnWords: false, needsWordTimings: false });
    }
  });

  it('diarizes on verbose_json with word timings, passing num_speakers on', () => {
    const plan = planTranscription(options({ format: 'verbose_json', speakerLabels: true, numSpeakers: 3, granularities: ['word'] }));
    expect(plan).toMatchObject({ diarize: true, numSpeakers: 3, needsWordTimings: true, returnWords: true });
  });

  it('ignores num_speakers without speaker_labels', () => {
    expect(planTranscription(options({ format: 'verbose_json', numSpeakers: 2 }))).toMatchObject({ diarize: false, numSpeakers: undefined });
  });

  it('rejects speaker_labels outside verbose_json with a 400', () => {
    for (const format of ['json', 'text', 'srt', 'vtt'] as const) {
      const error = rejection({ format, speakerLabels: true });
      expect([error.status, error.code, error.param]).toEqual([400, 'speaker_labels_require_verbose_json', 'speaker_labels']);
    }
  });

  it('rejects speaker_labels with a granularity list lacking word with a 400', () => {
    for (const granularities of [['segment'], []] as const) {
      const error = rejection({ format: 'verbose_json', speakerLabels: true, granularities });
      expect([error.status, error.code]).toEqual([400, 'speaker_labels_require_word_timestamps']);
    }
  });

  it('keeps the language hint for the echo', () => {
    expect(planTranscription(options({ language: 'de' })).language).toBe('de');
    expect(planTranscription(options({})).language).toBeUndefined();
  });
});
