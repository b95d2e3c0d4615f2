import { boundImageCount, boundSpeechSeconds, maxSpeechSeconds } from './output-bounds';

describe('image count bound', () => {
  it('bills the images returned up to n, without a dispute', () => {
    expect(boundImageCount(2, 2)).toEqual({ billed: 2, dispute: null });
    expect(boundImageCount(0, 3)).toEqual({ billed: 0, dispute: null });
  });

  it('bills n for n + 1 images and records the dispute', () => {
    expect(boundImageCount(3, 2)).toEqual({ billed: 2, dispute: { field: 'data', reported: '3', billed: 2, bound: '<= 2', reason: 'over_requested_count', severity: 'hard' } });
  });
});

describe('speech output bound', () => {
  it('is (10 s + 0.5 s a character) / speed, up to a whole second', () => {
    expect(maxSpeechSeconds(100, 1)).toBe('60');
    expect(maxSpeechSeconds(1, 1)).toBe('11');
    expect(maxSpeechSeconds(0, 1)).toBe('10');
    expect(maxSpeechSeconds(100, 0.25)).toBe('240');
    expect(maxSpeechSeconds(100, 4)).toBe('15');
    expect(maxSpeechSeconds(3, 3)).toBe('4');
    expect(maxSpeechSeconds(4, 4)).toBe('3');
  });

  it('bills audio at the bound as measured, without a dispute', () => {
    expect(boundSpeechSeconds('60', '60')).toEqual({ billed: '60', dispute: null });
    expect(boundSpeechSeconds('0.25', '60')).toEqual({ billed: '0.25', dispute: null });
  });

  it('bills audio just past the bound at the bound and records the dispute', () => {
    expect(boundSpeechSeconds('60.000001', '60')).toEqual({
      billed: '60',
      dispute: { field: 'output.audio.duration', reported: '60.000001', billed: 60, bound: '<= 60', reason: 'over_input_bound', severity: 'hard' },
    });
  });
});
