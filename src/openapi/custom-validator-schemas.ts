// Schemas for the DTOs' own validators (class-validator `ValidateBy`), by validator name: a custom
// validator is a function the schema generator cannot read. A validator missing here is documented
// by its declared TypeScript type when that is a primitive, else as "any value".
import { IMAGE_DETAILS } from '../decisions/domain/decision-input';
import { STREAMABLE_FORMATS } from '../speech/domain/speech-formats';
import { MAX_USD_NUMBER } from '../keys/usd-amount';
import { TIMESTAMP_PATTERN } from '../keys/timestamp';
import type { JsonSchema, SchemaConverters } from './json-schema';

const USD_AMOUNT: JsonSchema = {
  anyOf: [
    { type: 'string', pattern: '^(0|[1-9][0-9]{0,12})(\\.[0-9]{1,6})?$' },
    { type: 'number', minimum: 0, maximum: MAX_USD_NUMBER, multipleOf: 0.000001 },
  ],
};

const CONTENT_PART: JsonSchema = { type: 'object', required: ['type'], properties: { type: { type: 'string' } } };

export const CUSTOM_VALIDATOR_SCHEMAS: SchemaConverters = {
  // Decision choice values are typed: "true" and true are different options.
  isStringOrBoolean: { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
  // Chat message content: text, null, or content parts that each name their type.
  // A USD amount (src/keys/usd-amount.ts): a decimal string, or a number of whole micros up to 9e9.
  isUsdAmount: USD_AMOUNT,
  isTimestamp: { type: 'string', format: 'date-time', pattern: TIMESTAMP_PATTERN },
  isUsdAmountOrNull: { anyOf: [...USD_AMOUNT.anyOf!, { type: 'null' }] },
  isMessageContent: {
    oneOf: [{ type: 'string' }, { type: 'array', items: CONTENT_PART }, { type: 'null' }],
  },
};

const object = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({ type: 'object', properties, required });

/**
 * The decisions `input` as domain/decision-input.ts checks it: text, or user messages whose content
 * is text or input_text / input_image parts (an image URL is a data: URL or a public https URL).
 */
export const DECISION_INPUT_SCHEMA: JsonSchema = {
  oneOf: [
    { type: 'string', description: 'Text evidence.' },
    {
      type: 'array',
      minItems: 1,
      description: 'User messages.',
      items: object(
        {
          role: { type: 'string', const: 'user' },
          content: {
            oneOf: [
              { type: 'string' },
              {
                type: 'array',
                items: {
                  oneOf: [
                    object({ type: { type: 'string', const: 'input_text' }, text: { type: 'string' } }, ['type', 'text']),
                    object(
                      {
                        type: { type: 'string', const: 'input_image' },
                        image_url: { type: 'string', pattern: '^(?:[dD][aA][tT][aA]:|https://)', description: 'A data: URL or a public https:// URL.' },
                        detail: { type: 'string', enum: [...IMAGE_DETAILS] },
                      },
                      ['type', 'image_url'],
                    ),
                  ],
                },
              },
            ],
          },
        },
        ['role', 'content'],
      ),
    },
  ],
};

const nonEmpty = (property: string): JsonSchema => ({ properties: { [property]: { type: 'string', minLength: 1 } }, required: [property] });

/**
 * The speech request's cross-field 400s (domain/speech-plan.ts): only pcm and wav stream, `ref_text`
 * needs `ref_audio`, and a preset `voice` and `ref_audio` exclude each other.
 */
export const SPEECH_REQUEST_RULES: JsonSchema = {
  allOf: [
    {
      if: { properties: { stream_format: { type: 'string' } }, required: ['stream_format'] },
      then: { properties: { response_format: { enum: [...STREAMABLE_FORMATS, null] } } },
    },
    { if: nonEmpty('ref_text'), then: nonEmpty('ref_audio') },
    { not: { allOf: [nonEmpty('voice'), nonEmpty('ref_audio')] } },
  ],
};
