// The spec's error envelope and 422 validation shape (src/common/api-error.ts renders both).
import { JsonSchema, arrayOf, object, orNull, ref, string } from '../json-schema';

export const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  ApiErrorResponse: object({ error: ref('ApiError') }, { description: 'The error envelope every non-422 error uses.' }),
  ApiError: object(
    {
      message: string(),
      type: { ...orNull(string()), description: 'Stable error class, e.g. invalid_request_error (docs/errors.md).' },
      param: { ...orNull(string()), description: 'The request field at fault, when one is.' },
      code: {
        oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }],
        description: 'Stable machine-readable code, e.g. model_not_found (docs/errors.md).',
      },
    },
    { optional: ['type', 'param', 'code'] },
  ),
  HTTPValidationError: object(
    { detail: arrayOf(ref('ValidationError')), error: { ...ref('ApiError'), description: 'The first failing field, for clients that read only `error`.' } },
    { description: 'Schema violations (status 422).' },
  ),
  ValidationError: object(
    {
      loc: {
        ...arrayOf({ oneOf: [{ type: 'string' }, { type: 'integer' }] }),
        description: 'Where the value is: body, query or path, then the field path.',
      },
      msg: string(),
      type: string('The failed constraint.'),
      input: { description: 'The offending value.' },
      ctx: { type: 'object' },
    },
    { optional: ['input', 'ctx'] },
  ),
};
