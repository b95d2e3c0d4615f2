// Reusable responses and headers: every error status the spec lists (docs/errors.md gives the codes),
// the bearer scheme, and the headers the gateway sets on every or on keyed responses.
import type { JsonSchema } from './json-schema';
import { ref } from './json-schema';

export interface HeaderObject {
  description: string;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, { schema?: JsonSchema }>;
}

export interface RequestBodyObject {
  required?: boolean;
  content: Record<string, { schema?: JsonSchema }>;
}

export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

export const HEADERS: Record<string, HeaderObject> = {
  RequestId: { description: 'The gateway\'s id for this request (a client x-request-id is kept only as correlation id).', schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  RateLimitLimit: { description: 'Requests the organization may make in the window.', schema: { type: 'integer', minimum: 0 } },
  RateLimitRemaining: { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
};

const REQUEST_ID = { 'X-Request-Id': headerRef('RequestId') };
const RATE_LIMIT = { 'X-RateLimit-Limit': headerRef('RateLimitLimit'), 'X-RateLimit-Remaining': headerRef('RateLimitRemaining') };

function errorResponse(description: string, headers: ResponseObject['headers'] = {}, schema = 'ApiErrorResponse'): ResponseObject {
  return { description, headers: { ...REQUEST_ID, ...headers }, content: { 'application/json': { schema: ref(schema) } } };
}

/** Status -> component response name, for every error status an operation may list. */
export const ERROR_RESPONSE_NAMES: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 402: 'PaymentRequired', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 410: 'Gone',
  413: 'PayloadTooLarge', 415: 'UnsupportedMediaType', 422: 'ValidationFailed', 429: 'RateLimited', 500: 'InternalError',
  502: 'UpstreamFailed', 503: 'Unavailable',
};

export const RESPONSES: Record<string, ResponseObject> = {
  BadRequest: errorResponse('A condition the spec lists as 400: malformed JSON, a value outside an enum, bad media, unsupported model, ...'),
  Unauthorized: errorResponse('Missing, invalid, expired, disabled or revoked API key.'),
  PaymentRequired: errorResponse("The organization has no payment method (payment_required), or the request's maximum cost does not fit in what remains of the key's spend limit or the organization's budget (budget_exceeded, chat, decisions and transcriptions)."),
  Forbidden: errorResponse('Not a member of the requested organization, a malformed X-Organization-Id, or the wrong kind of key (model_key_required, management_key_required).'),
  NotFound: errorResponse('Unknown model id.'),
  Conflict: errorResponse('The key is revoked (key_revoked), comes from the configuration file (configuration_key), or changed concurrently.'),
  Gone: errorResponse('Retired endpoint (code endpoint_removed).'),
  PayloadTooLarge: errorResponse('Body over 100 MiB, or media over its limit after transcoding.'),
  UnsupportedMediaType: errorResponse('The request Content-Type is not one this endpoint reads.'),
  ValidationFailed: errorResponse('Schema violation: wrong types, missing fields, ranges or sizes.', {}, 'HTTPValidationError'),
  RateLimited: errorResponse('The organization is over its rate limit.', { 'Retry-After': headerRef('RetryAfter'), ...RATE_LIMIT }),
  InternalError: errorResponse('Unhandled server error.'),
  UpstreamFailed: errorResponse('The model failed or timed out, or its answer could not be used; a retry may succeed.'),
  Unavailable: errorResponse(
    'Temporarily unavailable: model cold start, capacity shedding, or an access, rate-limit or billing dependency outage.',
    { 'Retry-After': headerRef('RetryAfter') },
  ),
};

/** Headers every success response carries; keyed operations add the rate-limit pair. */
export const successHeaders = (keyed: boolean): ResponseObject['headers'] => (keyed ? { ...REQUEST_ID, ...RATE_LIMIT } : REQUEST_ID);

export const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>.' },
};
