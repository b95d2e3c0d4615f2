// Checks the decision model's reply against the questions asked: one answer per question, in
// order, same names and types, well-formed probabilities, a choice that is one of the options (a
// refusal may stand in for any answer). Any mismatch is the model's fault and a 502 (spec: "its
// answers do not match the questions (retry)"), never repaired into an answer and never billed.
import { ApiError } from '../../common/api-error';
import type { DecisionAnswer, DecisionQuestion } from './decision.types';
import { choiceAnswer, scoreAnswer } from './answer-arithmetic';

/** How far a choice or score distribution may sum from 1 (see docs/decisions.md). */
export const PROBABILITY_SUM_TOLERANCE = 1e-3;

export interface UpstreamTokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens?: number;
}

export interface CheckedDecision {
  answers: DecisionAnswer[];
  usage: UpstreamTokenUsage;
}

type Entry = Record<string, unknown>;

class AnswerMismatch extends Error {}

export function checkUpstreamDecision(questions: readonly DecisionQuestion[], body: unknown): CheckedDecision {
  try {
    const reply = record(body, 'the reply');
    const answers = list(reply.answers, 'answers');
    if (answers.length !== questions.length) {
      throw new AnswerMismatch(`${answers.length} answers for ${questions.length} questions`);
    }
    return { answers: questions.map((question, index) => checkAnswer(question, answers[index], index)), usage: checkUsage(reply.usage) };
  } catch (error) {
    if (!(error instanceof AnswerMismatch)) throw error;
    throw ApiError.upstream('invalid_upstream_answers', `The decision model's answers do not match the questions: ${error.message}. Retrying may succeed.`);
  }
}

function checkAnswer(question: DecisionQuestion, raw: unknown, index: number): DecisionAnswer {
  const where = `answers[${index}]`;
  const answer = record(raw, where);
  const name = question.name ?? null;
  if ((answer.name ?? null) !== name) {
    throw new AnswerMismatch(`${where} is named ${JSON.stringify(answer.name ?? null)}, the question ${JSON.stringify(name)}`);
  }
  if (answer.type === 'refusal') return { type: 'refusal', name };
  if (answer.type !== question.type) {
    throw new AnswerMismatch(`${where} is of type ${JSON.stringify(answer.type)} for a ${question.type} question`);
  }
  switch (question.type) {
    case 'predicate':
      return { type: 'predicate', name, probability: probability(answer.probability, `${where}.probability`) };
    case 'choice': {
      const probabilities = distribution(answer, where, question.choices.map((c) => ({ value: c.value })));
      return choiceAnswer(question, name, probabilities, selectedChoice(question.choices, answer.choice, `${where}.choice`));
    }
    case 'score':
      return scoreAnswer(question, name, distribution(answer, where, scoreEntries(question.levels.map((l) => l.label))));
  }
}

/** The model's selected value, which must be one of the options, identical in type and value ("true" is not true). */
function selectedChoice(options: readonly { value: unknown }[], value: unknown, where: string): number {
  const index = options.findIndex((option) => option.value === value);
  if (index < 0) throw new AnswerMismatch(`${where} is ${JSON.stringify(value ?? null)}, not one of the question's choices`);
  return index;
}

/** Levels reach the upstream without gateway values, so its level values are positions 0, 1, 2, ... */
function scoreEntries(labels: string[]): Entry[] {
  return labels.map((label, position) => ({ value: position, label }));
}

/** Probabilities in the questions' option order; each entry must carry the expected keys. */
function distribution(answer: Entry, where: string, expected: Entry[]): number[] {
  const entries = list(answer.probabilities, `${where}.probabilities`);
  if (entries.length !== expected.length) {
    throw new AnswerMismatch(`${where}.probabilities has ${entries.length} entries for ${expected.length} options`);
  }
  const probabilities = entries.map((raw, index) => {
    const entry = record(raw, `${where}.probabilities[${index}]`);
    for (const [key, value] of Object.entries(expected[index])) {
      if (entry[key] !== value) {
        throw new AnswerMismatch(`${where}.probabilities[${index}].${key} is ${JSON.stringify(entry[key])}, expected ${JSON.stringify(value)}`);
      }
    }
    return probability(entry.probability, `${where}.probabilities[${index}].probability`);
  });
  const sum = probabilities.reduce((total, p) => total + p, 0);
  if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE) {
    throw new AnswerMismatch(`${where}.probabilities sum to ${sum}, not 1`);
  }
  return probabilities;
}

function probability(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new AnswerMismatch(`${where} is ${String(value)}, not a probability between 0 and 1`);
  }
  return value;
}

function checkUsage(raw: unknown): UpstreamTokenUsage {
  const usage = record(raw, 'usage');
  const details = usage.input_tokens_details === undefined || usage.input_tokens_details === null ? {} : record(usage.input_tokens_details, 'usage.input_tokens_details');
  const cached = details.cached_tokens === undefined || details.cached_tokens === null ? undefined : count(details.cached_tokens, 'usage.input_tokens_details.cached_tokens');
  return { inputTokens: count(usage.input_tokens, 'usage.input_tokens'), outputTokens: count(usage.output_tokens, 'usage.output_tokens'), cachedTokens: cached };
}

function count(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new AnswerMismatch(`${where} is ${JSON.stringify(value)}, not a token count`);
  }
  return value;
}

function record(value: unknown, where: string): Entry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AnswerMismatch(`${where} is not an object`);
  return value as Entry;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new AnswerMismatch(`${where} is not an array`);
  return value;
}
