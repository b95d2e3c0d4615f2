// The decisions response (src/decisions/domain/decision.types.ts): one typed answer per question,
// in question order; a refusal may replace any answer.
import { JsonSchema, arrayOf, constant, integer, number, object, orNull, ref, string, unitInterval } from '../json-schema';

const answer = (type: string, fields: Record<string, JsonSchema> = {}): JsonSchema =>
  object({ type: constant(type), name: { ...orNull(string()), description: 'The question\'s name, or null when it had none.' }, ...fields });

const choiceValue = (): JsonSchema => ({ oneOf: [{ type: 'string' }, { type: 'boolean' }], description: 'Typed: "true" and true differ.' });

export const DECISION_SCHEMAS: Record<string, JsonSchema> = {
  DecisionResponse: object({
    model: string('Model id from the request.'),
    answers: {
      ...arrayOf({ oneOf: [ref('PredicateAnswer'), ref('ChoiceAnswer'), ref('ScoreAnswer'), ref('RefusalAnswer')] }),
      description: 'One answer per question, in question order; each answer\'s `type` tells which.',
    },
    usage: ref('DecisionUsage'),
  }),
  PredicateAnswer: answer('predicate', { probability: unitInterval() }),
  ChoiceAnswer: answer('choice', {
    choice: choiceValue(),
    probabilities: arrayOf(object({ value: choiceValue(), probability: unitInterval() })),
    confidence: unitInterval(),
  }),
  ScoreAnswer: answer('score', {
    score: { ...number(), description: 'Expected level value: the sum of each level value times its probability.' },
    probabilities: arrayOf(object({ value: integer(), label: string(), probability: unitInterval() })),
    confidence: unitInterval(),
  }),
  RefusalAnswer: answer('refusal'),
  DecisionUsage: object({
    input_tokens: { ...integer(0), description: 'Across text, audio and image evidence.' },
    input_tokens_details: object({
      multimodal_tokens: {
        ...orNull(object({ text: integer(0), image: integer(0), audio: integer(0) })),
        description: 'Input tokens by modality; null for text-only evidence.',
      },
    }),
    output_tokens: integer(0),
    total_tokens: { ...integer(0), description: 'Input plus output tokens.' },
  }),
};
