import { choiceAnswer, confidenceOf, expectedScore, mostProbableIndex, scoreAnswer } from './answer-arithmetic';

describe('confidenceOf', () => {
  it('is 0 for a uniform distribution and 1 for certainty', () => {
    expect(confidenceOf([0.25, 0.25, 0.25, 0.25])).toBe(0);
    expect(confidenceOf([0, 1, 0])).toBe(1);
  });

  it('is linear in the top probability: (k x max - 1) / (k - 1)', () => {
    expect(confidenceOf([0.1, 0.2, 0.7])).toBe(0.55);
    expect(confidenceOf([0.4, 0.6])).toBe(0.2);
  });

  it('never goes below 0 for a flat-ish distribution', () => {
    expect(confidenceOf([0.3, 0.35, 0.35])).toBeCloseTo(0.025, 12);
    expect(confidenceOf([0.33, 0.33, 0.33])).toBe(0);
  });
});

describe('mostProbableIndex', () => {
  it('picks the largest and breaks ties by the listed order', () => {
    expect(mostProbableIndex([0.1, 0.6, 0.3])).toBe(1);
    expect(mostProbableIndex([0.4, 0.2, 0.4])).toBe(0);
  });
});

describe('expectedScore', () => {
  it('sums value x probability exactly', () => {
    expect(expectedScore([0, 1, 2], [0, 0.2, 0.8])).toBe(1.8);
    expect(expectedScore([0, 1, 2, 3], [0.1, 0.2, 0.3, 0.4])).toBe(2);
    expect(expectedScore([0, 5, 10], [0.5, 0.3, 0.2])).toBe(3.5);
  });
});

describe('choiceAnswer and scoreAnswer', () => {
  it('keeps choice values typed and in the listed order', () => {
    const question = { type: 'choice' as const, instructions: 'x', choices: [{ value: 'true' }, { value: true }, { value: 'no' }] };
    expect(choiceAnswer(question, 'c', [0.2, 0.5, 0.3])).toEqual({
      type: 'choice',
      name: 'c',
      choice: true,
      probabilities: [
        { value: 'true', probability: 0.2 },
        { value: true, probability: 0.5 },
        { value: 'no', probability: 0.3 },
      ],
      confidence: 0.25,
    });
  });

  it('reports level values and labels with the expected score', () => {
    const question = { type: 'score' as const, instructions: 'x', levels: [{ label: 'low' }, { label: 'mid', value: 5 }, { label: 'high', value: 10 }] };
    expect(scoreAnswer(question, null, [0.5, 0.3, 0.2])).toEqual({
      type: 'score',
      name: null,
      score: 3.5,
      probabilities: [
        { value: 0, label: 'low', probability: 0.5 },
        { value: 5, label: 'mid', probability: 0.3 },
        { value: 10, label: 'high', probability: 0.2 },
      ],
      confidence: 0.25,
    });
  });
});
