// Schemas for the DTOs' own validators (class-validator `ValidateBy`), by validator name: a custom
// validator is a function the schema generator cannot read. A validator missing here is documented
// by its declared TypeScript type when that is a primitive, else as "any value".
import type { SchemaConverters } from './dto-schemas';
import type { JsonSchema } from './json-schema';

const CONTENT_PART: JsonSchema = { type: 'object', required: ['type'], properties: { type: { type: 'string' } } };

export const CUSTOM_VALIDATOR_SCHEMAS: SchemaConverters = {
  // Decision choice values are typed: "true" and true are different options.
  isStringOrBoolean: { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
  // Chat message content: text, null, or content parts that each name their type.
  isMessageContent: {
    oneOf: [{ type: 'string' }, { type: 'array', items: CONTENT_PART }, { type: 'null' }],
  },
};
