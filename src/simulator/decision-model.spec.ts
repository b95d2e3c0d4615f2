import { simulatedAnswer } from './decision-model';

describe('simulatedAnswer', () => {
  it('answers choices and levels with the increasing default distribution 2(i+1)/k(k+1)', () => {
    const answer = simulatedAnswer({ type: 'choice', instructions: 'Which?', name: 'q', choices: [{ value: 'a' }, { value: false }, { value: 'c' }, { value: 'd' }] });
    expect(answer).toMatchObject({ type: 'choice', name: 'q', choice: 'd' });
    expect((answer.probabilities as { value: unknown; probability: number }[]).map((p) => [p.value, p.probability])).toEqual([
      ['a', 0.1], [false, 0.2], ['c', 0.3], ['d', 0.4],
    ]);
    const score = simulatedAnswer({ type: 'score', instructions: 'How?', levels: [{ label: 'lo' }, { label: 'hi' }] });
    expect(score.probabilities).toEqual([{ value: 0, label: 'lo', probability: 1 / 3 }, { value: 1, label: 'hi', probability: 2 / 3 }]);
    expect(score.name).toBeNull();
  });

  it('gives a predicate a stable probability between 0.10 and 0.98 from its instructions', () => {
    const first = simulatedAnswer({ type: 'predicate', instructions: 'Is it spam?' });
    expect(simulatedAnswer({ type: 'predicate', instructions: 'Is it spam?' })).toEqual(first);
    expect(first.probability).toBeGreaterThanOrEqual(0.1);
    expect(first.probability).toBeLessThanOrEqual(0.98);
  });

  it('follows the instructions directives for a fixed distribution or a refusal', () => {
    expect(simulatedAnswer({ type: 'predicate', instructions: 'Spam? [sim:probabilities=0.85]', name: 's' })).toEqual({ type: 'predicate', name: 's', probability: 0.85 });
    const choice = simulatedAnswer({ type: 'choice', instructions: '[sim:probabilities=0.7, 0.3] Which?', choices: [{ value: 'x' }, { value: 'y' }] });
    expect(choice).toMatchObject({ choice: 'x', probabilities: [{ value: 'x', probability: 0.7 }, { value: 'y', probability: 0.3 }] });
    expect(simulatedAnswer({ type: 'score', instructions: 'No. [sim:refuse]', name: 'r', levels: [] })).toEqual({ type: 'refusal', name: 'r' });
  });
});
