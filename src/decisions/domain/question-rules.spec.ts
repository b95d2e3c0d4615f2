import { ApiError } from '../../common/api-error';
import type { DecisionQuestion } from './decision.types';
import { assertQuestionRules, levelValues } from './question-rules';

function refusal(questions: DecisionQuestion[]): { code: string; param: string | null } | null {
  try {
    assertQuestionRules(questions);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.status).toBe(400);
    return { code: error.code, param: error.param };
  }
}

const predicate = (name?: string): DecisionQuestion => ({ type: 'predicate', instructions: 'Is it?', name });
const choice = (...values: (string | boolean)[]): DecisionQuestion => ({ type: 'choice', instructions: 'Which?', choices: values.map((value) => ({ value })) });
const score = (...values: (number | undefined)[]): DecisionQuestion => ({
  type: 'score',
  instructions: 'How much?',
  levels: values.map((value, index) => ({ label: `L${index}`, value })),
});

describe('assertQuestionRules', () => {
  it('accepts unnamed and uniquely named questions', () => {
    expect(refusal([predicate(), predicate(), predicate('a'), predicate('b')])).toBeNull();
  });

  it('refuses a repeated name, pointing at the second use', () => {
    expect(refusal([predicate('a'), predicate('b'), predicate('a')])).toEqual({ code: 'duplicate_question_name', param: 'questions.2.name' });
  });

  it('treats the string "true" and the boolean true as distinct choice values', () => {
    expect(refusal([choice('true', true, false, 'false')])).toBeNull();
  });

  it('refuses duplicate choice values', () => {
    expect(refusal([choice('a', 'b', 'a')])).toEqual({ code: 'duplicate_choice_value', param: 'questions.0.choices.2.value' });
    expect(refusal([predicate(), choice(true, true)])).toEqual({ code: 'duplicate_choice_value', param: 'questions.1.choices.1.value' });
  });

  it('needs 2 to 255 choices', () => {
    expect(refusal([choice('only')])?.code).toBe('invalid_choices');
    expect(refusal([choice(...Array.from({ length: 255 }, (_, i) => `v${i}`))])).toBeNull();
    expect(refusal([choice(...Array.from({ length: 256 }, (_, i) => `v${i}`))])?.code).toBe('invalid_choices');
  });

  it('needs 2 to 10 levels', () => {
    expect(refusal([score(undefined)])).toEqual({ code: 'invalid_levels', param: 'questions.0.levels' });
    expect(refusal([score(...Array<undefined>(10).fill(undefined))])).toBeNull();
    expect(refusal([score(...Array<undefined>(11).fill(undefined))])?.code).toBe('invalid_levels');
  });

  it('needs the first level at value 0 and strictly ascending values', () => {
    expect(refusal([score(0, 5, 10)])).toBeNull();
    expect(refusal([score(1, 2)])).toEqual({ code: 'invalid_levels', param: 'questions.0.levels.0.value' });
    expect(refusal([score(0, 3, 3)])).toEqual({ code: 'invalid_levels', param: 'questions.0.levels.2.value' });
    expect(refusal([score(0, undefined, 1)])).toEqual({ code: 'invalid_levels', param: 'questions.0.levels.2.value' });
  });
});

describe('levelValues', () => {
  it('uses declared values and positions otherwise', () => {
    expect(levelValues([{ label: 'a' }, { label: 'b' }, { label: 'c', value: 7 }])).toEqual([0, 1, 7]);
  });
});
