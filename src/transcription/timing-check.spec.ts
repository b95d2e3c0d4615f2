import { findTimingProblem, TIMING_TOLERANCE_SECONDS } from './timing-check';

describe('findTimingProblem', () => {
  it('accepts spans inside the audio that run forwards', () => {
    expect(findTimingProblem([{ start: 0, end: 0.5 }, { start: 0.5, end: 0.5 }, { start: 0.7, end: 2 }], 2, 'word')).toBeNull();
  });

  it('accepts an empty list', () => {
    expect(findTimingProblem([], 0, 'word')).toBeNull();
  });

  it('tolerates an end within the quantisation slack past the audio', () => {
    expect(findTimingProblem([{ start: 1, end: 2 + TIMING_TOLERANCE_SECONDS }], 2, 'word')).toBeNull();
  });

  it('rejects a span ending after the audio', () => {
    expect(findTimingProblem([{ start: 1, end: 2.2 }], 2, 'word')).toMatch(/word 0 .* outside the 2 s of audio/);
  });

  it('rejects a negative start', () => {
    expect(findTimingProblem([{ start: -0.1, end: 1 }], 2, 'segment')).toMatch(/segment 0/);
  });

  it('rejects a span that ends before it starts', () => {
    expect(findTimingProblem([{ start: 1, end: 0.5 }], 2, 'word')).toMatch(/ends .* before it starts/);
  });

  it('rejects starts that go backwards', () => {
    expect(findTimingProblem([{ start: 1, end: 1.2 }, { start: 0.5, end: 1.3 }], 2, 'word')).toMatch(/word 1 .* backwards/);
  });

  it('rejects ends that go backwards', () => {
    expect(findTimingProblem([{ start: 0, end: 1.5 }, { start: 0.5, end: 1 }], 2, 'word')).toMatch(/word 1/);
  });

  it('rejects missing or non-numeric times', () => {
    expect(findTimingProblem([{ start: undefined as unknown as number, end: 1 }], 2, 'word')).toMatch(/no numeric start/);
    expect(findTimingProblem([{ start: 0, end: Number.NaN }], 2, 'word')).toMatch(/no numeric start/);
  });
});
