// The fields the gateway derives from a checked distribution (see docs/decisions.md): the expected
// score, the most probable choice and a confidence. Sums run on exact decimals of the numbers as
// received, so 0.2 x 1 + 0.8 x 2 is 1.8 and not 1.8000000000000003.
import { BigDecimal } from '../../common/big-decimal';
import type { ChoiceAnswer, ChoiceQuestion, ScoreAnswer, ScoreQuestion } from './decision.types';
import { levelValues } from './question-rules';

const exact = (value: number) => BigDecimal.ofNumber(value);
/** Far more places than a double holds: the quotient's double is the exact quotient's. */
const QUOTIENT_PLACES = 100;
const ONE = BigDecimal.of(1);

/**
 * Linear in the top probability: `(k x max(p) - 1) / (k - 1)`, clamped to 0..1. A uniform
 * distribution gives 0, certainty gives 1.
 */
export function confidenceOf(probabilities: readonly number[]): number {
  const k = probabilities.length;
  const top = probabilities.reduce((max, p) => Math.max(max, p), 0);
  const linear = exact(top).times(k).minus(ONE).dividedBy(k - 1, QUOTIENT_PLACES, 'half-up');
  if (linear.isNegative()) return 0;
  return linear.compare(ONE) > 0 ? 1 : linear.toNumber();
}

/** Index of the most probable entry; a tie goes to the earliest, as the client listed them. */
export function mostProbableIndex(probabilities: readonly number[]): number {
  return probabilities.reduce((best, p, index) => (p > probabilities[best] ? index : best), 0);
}

/** Sum of each level's value times its probability. */
export function expectedScore(values: readonly number[], probabilities: readonly number[]): number {
  return values.reduce((sum, value, index) => sum.plus(exact(value).times(exact(probabilities[index]))), BigDecimal.ZERO).toNumber();
}

/** `selected`: the index of the model's own choice, checked against the options; else the most probable. */
export function choiceAnswer(question: ChoiceQuestion, name: string | null, probabilities: readonly number[], selected = mostProbableIndex(probabilities)): ChoiceAnswer {
  return {
    type: 'choice',
    name,
    choice: question.choices[selected].value,
    probabilities: question.choices.map((option, index) => ({ value: option.value, probability: probabilities[index] })),
    confidence: confidenceOf(probabilities),
  };
}

export function scoreAnswer(question: ScoreQuestion, name: string | null, probabilities: readonly number[]): ScoreAnswer {
  const values = levelValues(question.levels);
  return {
    type: 'score',
    name,
    score: expectedScore(values, probabilities),
    probabilities: question.levels.map((level, index) => ({ value: values[index], label: level.label, probability: probabilities[index] })),
    confidence: confidenceOf(probabilities),
  };
}
