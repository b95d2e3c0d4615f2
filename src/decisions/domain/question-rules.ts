// The question rules the spec answers with 400 (duplicate names, duplicate choice values, level
// counts); the request's shape is checked by the DTO before these run.
import { ApiError } from '../../common/api-error';
import type { ChoiceQuestion, DecisionQuestion, ScoreLevel, ScoreQuestion } from './decision.types';

export const MIN_CHOICES = 2;
export const MAX_CHOICES = 255;
export const MIN_LEVELS = 2;
export const MAX_LEVELS = 10;

export function assertQuestionRules(questions: readonly DecisionQuestion[]): void {
  assertUniqueNames(questions);
  questions.forEach((question, index) => {
    if (question.type === 'choice') assertChoices(question, `questions.${index}.choices`);
    if (question.type === 'score') assertLevels(question, `questions.${index}.levels`);
  });
}

function assertUniqueNames(questions: readonly DecisionQuestion[]): void {
  const seen = new Set<string>();
  questions.forEach((question, index) => {
    if (question.name === undefined || question.name === null) return;
    if (seen.has(question.name)) {
      throw ApiError.badRequest('duplicate_question_name', `The question name '${question.name}' is used more than once.`, `questions.${index}.name`);
    }
    seen.add(question.name);
  });
}

function assertChoices(question: ChoiceQuestion, param: string): void {
  const count = question.choices.length;
  if (count < MIN_CHOICES || count > MAX_CHOICES) {
    throw ApiError.badRequest('invalid_choices', `A choice question needs ${MIN_CHOICES} to ${MAX_CHOICES} choices; it has ${count}.`, param);
  }
  // A Set compares with SameValueZero, so the string "true" and the boolean true stay distinct.
  const seen = new Set<string | boolean>();
  question.choices.forEach((choice, index) => {
    if (seen.has(choice.value)) {
      throw ApiError.badRequest('duplicate_choice_value', `The choice value ${JSON.stringify(choice.value)} appears more than once.`, `${param}.${index}.value`);
    }
    seen.add(choice.value);
  });
}

function assertLevels(question: ScoreQuestion, param: string): void {
  const count = question.levels.length;
  if (count < MIN_LEVELS || count > MAX_LEVELS) {
    throw ApiError.badRequest('invalid_levels', `A score question needs ${MIN_LEVELS} to ${MAX_LEVELS} levels; it has ${count}.`, param);
  }
  const values = levelValues(question.levels);
  if (values[0] !== 0) {
    throw ApiError.badRequest('invalid_levels', `The first level must have value 0; it has ${values[0]}.`, `${param}.0.value`);
  }
  values.forEach((value, index) => {
    if (index > 0 && value <= values[index - 1]) {
      throw ApiError.badRequest('invalid_levels', `Levels must be in ascending order of value; level ${index} (${value}) does not exceed level ${index - 1} (${values[index - 1]}).`, `${param}.${index}.value`);
    }
  });
}

/** Each level's value: the one it declares, else its position (0, 1, 2, ...). */
export function levelValues(levels: readonly ScoreLevel[]): number[] {
  return levels.map((level, index) => level.value ?? index);
}
