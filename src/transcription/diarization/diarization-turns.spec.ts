import { ApiError } from '../../common/api-error';
import { readSpeakerTurns } from './diarization-turns';

function failure(body: unknown): ApiError {
  try {
    readSpeakerTurns(body, 3);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

describe('readSpeakerTurns', () => {
  it('sorts turns and numbers the diarizer labels by first appearance', () => {
    const body = {
      segments: [
        { speaker: 'SPEAKER_00', start: 1.2, end: 2 },
        { speaker: 'SPEAKER_01', start: 0, end: 1 },
      ],
    };
    expect(readSpeakerTurns(body, 3)).toEqual([
      { speaker: 0, start: 0, end: 1 },
      { speaker: 1, start: 1.2, end: 2 },
    ]);
  });

  it('accepts numeric labels and no turns at all', () => {
    expect(readSpeakerTurns({ segments: [{ speaker: 7, start: 0, end: 1 }] }, 3)).toEqual([{ speaker: 0, start: 0, end: 1 }]);
    expect(readSpeakerTurns({ segments: [] }, 3)).toEqual([]);
  });

  it.each([
    ['no segments list', { turns: [] }],
    ['a turn without speaker', { segments: [{ start: 0, end: 1 }] }],
    ['a turn past the audio', { segments: [{ speaker: 'A', start: 2, end: 4 }] }],
    ['a reversed turn', { segments: [{ speaker: 'A', start: 2, end: 1 }] }],
    ['a turn with text times', { segments: [{ speaker: 'A', start: '0', end: 1 }] }],
    ['a null body', null],
  ])('is a 502 speaker failure for %s', (_name, body) => {
    const error = failure(body);
    expect([error.status, error.code]).toEqual([502, 'speaker_enrichment_failed']);
  });
});
