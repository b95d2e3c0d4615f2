// What the code cannot say about each operation: its purpose, what a success looks like (the
// handlers return TypeScript interfaces, which leave no runtime trace) and the spec's error statuses
// beyond those the route's facts imply. Keyed by "METHOD /path"; "*" matches every method.
// The e2e test fails on a route missing here and on an entry matching no route.
import type { ModelKind } from '../catalog/catalog.types';
import { COST_GROUPINGS, DEFAULT_LIMIT, MAX_LIMIT } from '../costs/domain/cost-query';
import { DEFAULT_REQUESTS_LIMIT, MAX_REQUESTS_LIMIT } from '../costs/domain/request-list';
import { IMAGE_OPERATIONS, ImageOperation } from '../images/domain/image-operations';
import { RequestBodyObject, ResponseObject, headerRef } from './components';
import { JsonSchema, ref } from './json-schema';
import type { ParameterObject } from './request-schemas';
import { imageRequestName } from './schemas/images.schema';

export interface OperationSpec {
  summary: string;
  tag: string;
  /** Success (and, for /v1/systemone, the only) responses by status. */
  responses: Record<string, ResponseObject>;
  /** Spec error statuses on top of the ones derived from the route (document-operation.ts). */
  errors?: number[];
  /** For a body the controller reads without a DTO. */
  requestBody?: RequestBodyObject;
  /** For parameters the controller parses without a DTO; replaces a scanned one of the same name. */
  parameters?: ParameterObject[];
  /** Retired or deprecated by the spec. */
  deprecated?: boolean;
  /** The kind of model its `model` field names: the catalog's ids of that kind are its examples. */
  modelKind?: ModelKind;
  /**
   * A concrete path documented on its own although the route of this templated path serves it
   * (its body differs from the template's); OpenAPI matches concrete paths first.
   */
  servedBy?: string;
}

const json = (description: string, schema: JsonSchema): ResponseObject => ({
  description,
  content: { 'application/json': { schema } },
});

const media = (type: string, description?: string) => ({ schema: { type: 'string', contentMediaType: type, ...(description ? { description } : {}) } as JsonSchema });

/**
 * A `text/event-stream` body: `schema` describes one event, as OpenAPI 3.2's `itemSchema` does
 * (and as tools such as schemathesis read it in 3.1): `{event, id, data}`, `data` holding the JSON.
 */
const eventStream = (eventSchema: string) => ({ schema: ref(eventSchema) });

// The spec's `/v1/images/{path}` is the multipart edit form (model, prompt, image). The relay's other
// operations take other bodies, so each gets its own concrete path, matched before the template.
const TEMPLATED_IMAGE_OPERATIONS: ImageOperation[] = ['edits'];
const CONCRETE_IMAGE_OPERATIONS = (Object.keys(IMAGE_OPERATIONS) as ImageOperation[]).filter((operation) => !TEMPLATED_IMAGE_OPERATIONS.includes(operation));

function imageOperation(operation: ImageOperation | 'template'): OperationSpec {
  const operations = operation === 'template' ? TEMPLATED_IMAGE_OPERATIONS : [operation];
  const rules = IMAGE_OPERATIONS[operations[0]];
  const type = rules.body === 'json' ? 'application/json' : 'multipart/form-data';
  return {
    summary: `Relay an image ${operations.join(' or ')} request (${type})`,
    tag: 'Images',
    modelKind: 'image',
    requestBody: { required: true, content: { [type]: { schema: ref(imageRequestName(operations[0])) } } },
    responses: { 200: json('The upstream image response, verbatim.', ref('ImagesResponse')) },
    errors: [400, 404, 502],
    ...(operation === 'template'
      ? { parameters: [{ name: 'path', in: 'path', required: true, schema: { type: 'string', enum: operations }, description: 'The image operation.' }] }
      : { servedBy: 'POST /v1/images/{path}' }),
  };
}

const SPEECH_AUDIO = ['audio/wav', 'audio/mpeg', 'audio/aac', 'audio/flac', 'audio/opus', 'audio/pcm'];

const query = (name: string, schema: JsonSchema, description: string, required = false): ParameterObject => ({ name, in: 'query', required, schema, description });

// As src/costs/domain/cost-query.ts parses them: integers beyond 2^53 are not integers there (422).
const unixSeconds = (): JsonSchema => ({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

const COST_QUERY: ParameterObject[] = [
  query('start_time', unixSeconds(), 'Inclusive Unix start, seconds.', true),
  query('end_time', unixSeconds(), 'Exclusive Unix end, seconds; now when omitted.'),
  query('bucket_width', { type: 'string', const: '1d', default: '1d' }, 'Only daily buckets.'),
  query(
    'group_by',
    { type: 'array', items: { type: 'string', enum: [...COST_GROUPINGS] }, maxItems: 1 },
    'line_item (the spec\'s), or the extensions model and api_key_id (docs/costs.md); one at a time (also accepted as group_by[]).',
  ),
  query('limit', { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }, 'Buckets per page.'),
  query('page', { type: 'string' }, 'Cursor from a previous page\'s next_page.'),
];

// Fastify answers 414 for a path parameter over 100 characters; ids are short and plain.
const KEY_ID: ParameterObject = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' }, description: 'The key id (`key_...`, or a configured key\'s id).' };
const ORGANIZATION_ID: ParameterObject = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^org-[A-Za-z0-9_-]{1,64}$' }, description: 'A configured organization id.' };

export const OPERATIONS: Record<string, OperationSpec> = {
  'POST /v1/chat/completions': {
    modelKind: 'chat',
    summary: 'Chat completion, also audio captioning',
    tag: 'Chat',
    responses: {
      200: {
        description: 'The completion; with `stream: true` a server-sent event stream of chat.completion.chunk objects ending with `data: [DONE]`.',
        content: { 'application/json': { schema: ref('ClientChatCompletion') }, 'text/event-stream': eventStream('ChatCompletionStreamEvent') },
      },
    },
    errors: [404, 502],
  },
  'POST /v1/audio/speech': {
    modelKind: 'speech',
    summary: 'Text-to-speech',
    tag: 'Audio',
    responses: {
      200: {
        description: 'The audio itself; with `stream_format: sse`, speech.audio.delta and speech.audio.done events.',
        content: {
          ...Object.fromEntries(SPEECH_AUDIO.map((type) => [type, media(type)])),
          'text/event-stream': eventStream('SpeechStreamEvent'),
        },
      },
    },
    errors: [404, 502],
  },
  'GET /v1/audio/voices': {
    modelKind: 'speech',
    summary: 'List the preset voices of a model',
    tag: 'Audio',
    responses: { 200: json('The voices; an alias lists the union of its members\' presets.', ref('VoiceListResponse')) },
    errors: [400, 404],
  },
  'POST /v1/audio/transcriptions': {
    modelKind: 'transcription',
    summary: 'Transcribe an audio file',
    tag: 'Audio',
    responses: {
      200: {
        description: '`json`/`verbose_json`: a TranscriptionResponse; `text`, `srt`, `vtt`: the text or caption file.',
        content: { 'application/json': { schema: ref('TranscriptionResponse') }, 'text/plain': { schema: { type: 'string' } } },
      },
    },
    errors: [404, 500, 502],
  },
  'POST /v1/images/{path}': imageOperation('template'),
  ...Object.fromEntries(CONCRETE_IMAGE_OPERATIONS.map((operation) => [`POST /v1/images/${operation}`, imageOperation(operation)])),
  'GET /v1/models': {
    summary: 'List models',
    tag: 'Models',
    responses: { 200: json('The models the gateway can serve, with pricing and capabilities.', ref('ListModelsResponse')) },
  },
  'GET /v1/organization/costs': {
    summary: 'Daily cost buckets of the organization (requires a payment method)',
    tag: 'Organization',
    parameters: COST_QUERY,
    responses: {
      200: {
        description: 'A page of daily UTC buckets in ascending time order; with `Accept: text/csv` (an extension) the same page as CSV, exact decimal USD, the next cursor in `x-next-page`.',
        content: { 'application/json': { schema: ref('CostPage') }, 'text/csv': { schema: { type: 'string' } } },
      },
    },
    errors: [400, 422],
  },
  'GET /v1/organization/requests': {
    summary: 'The organization\'s latest requests, newest first (an extension, docs/costs.md)',
    tag: 'Organization',
    parameters: [
      query('limit', { type: 'integer', minimum: 1, maximum: MAX_REQUESTS_LIMIT, default: DEFAULT_REQUESTS_LIMIT }, 'Entries per page.'),
      query('after', { type: 'string' }, 'The last_id of the previous page: the entries older than it.'),
    ],
    responses: { 200: json('A page of the request log (the last 10,000 requests of the organization are kept).', ref('RequestList')) },
    errors: [400, 422],
  },
  'POST /v1/decisions': {
    modelKind: 'decision',
    summary: 'Typed answers to questions about evidence',
    tag: 'Decisions',
    responses: { 200: json('One answer per question, in question order.', ref('DecisionResponse')) },
    errors: [404, 502],
  },
  'POST /v1/keys': {
    summary: 'Issue an API key (management key)',
    tag: 'Keys',
    responses: { 201: json('The key, with the plain key shown this once.', ref('IssuedApiKey')) },
  },
  'GET /v1/margins': {
    summary: 'Revenue, cost of goods and margin per UTC day, by model, deployment or organization (management key; docs/routing.md)',
    tag: 'Keys',
    parameters: [
      query('start_time', unixSeconds(), 'Inclusive Unix start, seconds.', true),
      query('end_time', unixSeconds(), 'Exclusive Unix end, seconds; now when omitted.'),
      query('group_by', { type: 'string', enum: ['model', 'deployment', 'organization'], default: 'model' }, 'One grouping per query.'),
      query('limit', { type: 'integer', minimum: 1, maximum: 31, default: 7 }, 'Buckets per page.'),
      query('page', { type: 'string' }, 'Cursor from a previous page\'s next_page.'),
    ],
    responses: { 200: json('A page of daily UTC buckets; amounts are integer micros as decimal text.', { type: 'object' }) },
    errors: [400, 422],
  },
  'GET /v1/keys': {
    summary: 'List API keys, configured ones first (management key; no secrets)',
    tag: 'Keys',
    responses: { 200: json('A page of keys.', ref('ApiKeyPage')) },
  },
  'GET /v1/keys/{id}': {
    parameters: [KEY_ID],
    summary: 'Get an API key (management key)',
    tag: 'Keys',
    responses: { 200: json('The key, without its secret.', ref('ApiKey')) },
    errors: [404],
  },
  'PATCH /v1/keys/{id}': {
    parameters: [KEY_ID],
    summary: 'Change, disable or enable an API key (management key)',
    tag: 'Keys',
    responses: { 200: json('The key as changed.', ref('ApiKey')) },
    errors: [404, 409],
  },
  'DELETE /v1/keys/{id}': {
    parameters: [KEY_ID],
    summary: 'Revoke an API key for good (management key)',
    tag: 'Keys',
    responses: { 200: json('The revoked key.', ref('ApiKey')) },
    errors: [404, 409],
  },
  'GET /v1/key': {
    summary: 'The calling API key: limit, usage in the current window, remaining, rate limit, expiry',
    tag: 'Keys',
    responses: { 200: json('The calling key, without its secret.', ref('ApiKey')) },
  },
  'PUT /v1/organizations/{id}/budget': {
    parameters: [ORGANIZATION_ID],
    summary: 'Set an organization\'s budget (management key)',
    tag: 'Keys',
    responses: { 200: json('The budget now in force.', ref('OrganizationBudget')) },
    errors: [404],
  },
  'GET /v1/organizations/{id}/budget': {
    parameters: [ORGANIZATION_ID],
    summary: 'Get an organization\'s budget and its usage (management key)',
    tag: 'Keys',
    responses: { 200: json('The budget in force.', ref('OrganizationBudget')) },
    errors: [404],
  },
  'PUT /v1/organizations/{id}/usage-format': {
    parameters: [ORGANIZATION_ID],
    summary: 'Set how an organization\'s responses carry usage: spec or openai (management key)',
    tag: 'Keys',
    responses: { 200: json('The usage format now in force.', ref('OrganizationUsageFormat')) },
    errors: [404],
  },
  'GET /v1/organizations/{id}/usage-format': {
    parameters: [ORGANIZATION_ID],
    summary: 'Get how an organization\'s responses carry usage (management key)',
    tag: 'Keys',
    responses: { 200: json('The usage format in force.', ref('OrganizationUsageFormat')) },
    errors: [404],
  },
  '* /v1/systemone': {
    summary: 'Retired: answers 410 with error code endpoint_removed',
    tag: 'Retired',
    deprecated: true,
    responses: {},
    errors: [410],
  },
  'GET /console': {
    summary: 'The cost console (a web page; docs/console.md), built by npm run build',
    tag: 'Console',
    responses: { 200: { description: 'The console\'s page, under a strict Content-Security-Policy.', content: { 'text/html': { schema: { type: 'string' } } } } },
    errors: [404],
  },
  'GET /console/{asset}': {
    summary: 'A built file of the cost console (script or style sheet, hashed name)',
    tag: 'Console',
    parameters: [{ name: 'asset', in: 'path', required: true, schema: { type: 'string' }, description: 'A file name the console build listed.' }],
    responses: {
      200: { description: 'The file, cached for a year (its name changes with its content).', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
      304: { description: 'Not modified (If-None-Match matched the ETag).' },
    },
    errors: [404],
  },
  'GET /healthz': {
    summary: 'Liveness',
    tag: 'Operations',
    responses: { 200: json('The process answers.', ref('Liveness')) },
  },
  'GET /readyz': {
    summary: 'Readiness',
    tag: 'Operations',
    responses: {
      200: json('Ready to serve.', ref('Readiness')),
      503: { ...json('A dependency is not ready; see checks.', ref('Readiness')), headers: { 'Retry-After': headerRef('RetryAfter') } },
    },
  },
  'GET /openapi.json': {
    summary: 'This OpenAPI 3.1 document',
    tag: 'Operations',
    responses: { 200: json('The document, generated from the code.', { type: 'object' }) },
  },
};

/** Path templates match whatever their parameters are named, as OpenAPI defines path identity. */
const templateShape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

export function operationSpec(method: string, path: string): OperationSpec | undefined {
  const shape = templateShape(path);
  const key = Object.keys(OPERATIONS).find((candidate) => {
    const [candidateMethod, candidatePath] = candidate.split(' ');
    return (candidateMethod === '*' || candidateMethod === method.toUpperCase()) && templateShape(candidatePath) === shape;
  });
  return key ? OPERATIONS[key] : undefined;
}
