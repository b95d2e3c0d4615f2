import { declaredFrameCount } from './video-probe';

describe('declared frame count (video header, nothing decoded)', () => {
  it('takes the sample table count when the container has one', () => {
    expect(declaredFrameCount({ nb_frames: '1800' }, 30, '60')).toBe(1800);
  });

  it('estimates duration x rate when it has none (Matroska, WebM)', () => {
    expect(declaredFrameCount({}, 30, '60')).toBe(1800);
    expect(declaredFrameCount({ nb_frames: '0' }, 29.97, '10.01')).toBe(300);
  });

  it('is 0 when the container says neither', () => {
    expect(declaredFrameCount({}, undefined, '60')).toBe(0);
    expect(declaredFrameCount({}, 30, undefined)).toBe(0);
  });
});
