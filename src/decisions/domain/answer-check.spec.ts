import { ApiError } from '../../common/api-error';
import { checkUpstreamDecision } from './answer-check';
import type { DecisionQuestion } from './decision.types';

const questions: DecisionQuestion[] = [
  { type: 'predicate', instructions: 'Is it spam?', name: 'spam' },
  { type: 'choice', instructions: 'Which team?', choices: [{ value: 'billing' }, { value: true }, { value: 'true' }] },
  { type: 'score', instructions: 'How urgent?', name: 'urgency', levels: [{ label: 'low' }, { label: 'mid', value: 5 }, { label: 'high', value: 10 }] },
];

const usage = { input_tokens: 120, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3, total_tokens: 123 };

function goodAnswers(): Record<string, unknown>[] {
  return [
    { type: 'predicate', name: 'spam', probability: 0.9 },
    { type: 'choice', name: null, choice: 'billing', confidence: 0.9, probabilities: [
      { value: 'billing', probability: 0.1 }, { value: true, probability: 0.6 }, { value: 'true', probability: 0.3 },
    ] },
    { type: 'score', name: 'urgency', score: 0.4, confidence: 0.1, probabilities: [
      { value: 0, label: 'low', probability: 0.2 }, { value: 1, label: 'mid', probability: 0.4 }, { value: 2, label: 'high', probability: 0.4 },
    ] },
  ];
}

function mismatch(answers: unknown, replyUsage: unknown = usage): string {
  try {
    checkUpstreamDecision(questions, { model: 'verdict', answers, usage: replyUsage });
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(502);
    expect((error as ApiError).code).toBe('invalid_upstream_answers');
    return (error as ApiError).message;
  }
  throw new Error('expected a mismatch');
}

describe('checkUpstreamDecision', () => {
  it('relays the model\'s choice and derives score and confidence from the distributions, ignoring the upstream values', () => {
    const checked = checkUpstreamDecision(questions, { model: 'verdict', answers: goodAnswers(), usage });
    expect(checked.answers[0]).toEqual({ type: 'predicate', name: 'spam', probability: 0.9 });
    expect(checked.answers[1]).toMatchObject({ type: 'choice', name: null, choice: 'billing', confidence: 0.4 });
    expect(checked.answers[2]).toMatchObject({ type: 'score', name: 'urgency', score: 6, confidence: 0.1 });
    expect(checked.usage).toEqual({ inputTokens: 120, outputTokens: 3, cachedTokens: 0 });
  });

  it('accepts a refusal in place of any answer', () => {
    const answers = goodAnswers();
    answers[1] = { type: 'refusal', name: null };
    answers[2] = { type: 'refusal', name: 'urgency' };
    const checked = checkUpstreamDecision(questions, { answers, usage });
    expect(checked.answers.slice(1)).toEqual([{ type: 'refusal', name: null }, { type: 'refusal', name: 'urgency' }]);
  });

  it('refuses a missing or extra answer', () => {
    expect(mismatch(goodAnswers().slice(0, 2))).toContain('2 answers for 3 questions');
    expect(mismatch([...goodAnswers(), { type: 'refusal', name: null }])).toContain('4 answers');
  });

  it('refuses answers out of order or with another name', () => {
    const answers = goodAnswers();
    expect(mismatch([answers[2], answers[1], answers[0]])).toContain('answers[0] is named "urgency"');
    answers[0] = { ...answers[0], name: 'ham' };
    expect(mismatch(answers)).toContain('answers[0] is named "ham"');
  });

  it('refuses an answer of another type', () => {
    const answers = goodAnswers();
    answers[0] = { type: 'choice', name: 'spam', probabilities: [] };
    expect(mismatch(answers)).toContain('type "choice" for a predicate question');
  });

  it('refuses probabilities outside 0..1 or not finite', () => {
    for (const probability of [1.5, -0.1, Infinity, Number.NaN, '0.5', null]) {
      const answers = goodAnswers();
      answers[0] = { ...answers[0], probability };
      expect(mismatch(answers)).toContain('answers[0].probability');
    }
  });

  it('refuses distributions that do not sum to 1 within the tolerance', () => {
    const answers = goodAnswers();
    (answers[1].probabilities as { probability: number }[])[0].probability = 0.2;
    expect(mismatch(answers)).toContain('answers[1].probabilities sum to 1.1');
    const close = goodAnswers();
    (close[1].probabilities as { probability: number }[])[0].probability = 0.1005;
    expect(() => checkUpstreamDecision(questions, { answers: close, usage })).not.toThrow();
  });

  it('refuses option values that differ, including in type', () => {
    const answers = goodAnswers();
    (answers[1].probabilities as { value: unknown }[])[1].value = 'true';
    expect(mismatch(answers)).toContain('answers[1].probabilities[1].value is "true", expected true');
  });

  it('refuses a choice outside the options, of another type, or missing: never repaired', () => {
    for (const [choice, shown] of [['option-0', '"option-0"'], ['True', '"True"'], [1, '1'], [undefined, 'null'], [null, 'null'], [{ value: 'billing' }, '{"value":"billing"}']] as const) {
      const answers = goodAnswers();
      answers[1] = { ...answers[1], choice };
      expect(mismatch(answers)).toContain(`answers[1].choice is ${shown}, not one of the question's choices`);
    }
    const typed = goodAnswers();
    typed[1] = { ...typed[1], choice: 'true' };
    expect((checkUpstreamDecision(questions, { answers: typed, usage }).answers[1] as { choice: unknown }).choice).toBe('true');
  });

  it('refuses level entries with another position or label', () => {
    const answers = goodAnswers();
    (answers[2].probabilities as { value: unknown }[])[1].value = 5;
    expect(mismatch(answers)).toContain('answers[2].probabilities[1].value is 5, expected 1');
    const relabelled = goodAnswers();
    (relabelled[2].probabilities as { label: unknown }[])[2].label = 'HIGH';
    expect(mismatch(relabelled)).toContain('label is "HIGH"');
  });

  it('refuses a distribution of the wrong length', () => {
    const answers = goodAnswers();
    (answers[2].probabilities as unknown[]).pop();
    expect(mismatch(answers)).toContain('2 entries for 3 options');
  });

  it('needs token counts in the usage', () => {
    expect(mismatch(goodAnswers(), null)).toContain('usage is not an object');
    expect(mismatch(goodAnswers(), { input_tokens: -1, output_tokens: 0 })).toContain('usage.input_tokens');
    expect(mismatch(goodAnswers(), { input_tokens: 1, output_tokens: 0.5 })).toContain('usage.output_tokens');
  });

  it('refuses a reply that is not an object with an answers array', () => {
    expect(() => checkUpstreamDecision(questions, 'nope')).toThrow(ApiError);
    expect(mismatch(null)).toContain('answers is not an array');
  });
});
