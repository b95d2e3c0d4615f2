// What the code cannot say about each operation: its purpose, what a success looks like (the
// handlers return TypeScript interfaces, which leave no runtime trace) and the spec's error statuses
// beyond those the route's facts imply. Keyed by "METHOD /path"; "*" matches every method.
// The e2e test fails on a route missing here and on an entry matching no route.
import { RequestBodyObject, ResponseObject, headerRef } from './components';
import { JsonSchema, ref } from './json-schema';
import type { ParameterObject } from './request-schemas';

export interface OperationSpec {
  summary: string;
  tag: string;
  /** Success (and, for /v1/systemone, the only) responses by status. */
  responses: Record<string, ResponseObject>;
  /** Spec error statuses on top of the ones derived from the route (document-operation.ts). */
  errors?: number[];
  /** For a body the controller reads without a DTO. */
  requestBody?: RequestBodyObject;
  /** For query parameters the controller parses without a DTO. */
  parameters?: ParameterObject[];
}

const json = (description: string, schema: JsonSchema): ResponseObject => ({
  description,
  content: { 'application/json': { schema } },
});

const media = (type: string, description?: string) => ({ schema: { type: 'string', contentMediaType: type, ...(description ? { description } : {}) } as JsonSchema });

const SPEECH_AUDIO = ['audio/wav', 'audio/mpeg', 'audio/aac', 'audio/flac', 'audio/opus', 'audio/pcm'];

const query = (name: string, schema: JsonSchema, description: string, required = false): ParameterObject => ({ name, in: 'query', required, schema, description });

const COST_QUERY: ParameterObject[] = [
  query('start_time', { type: 'integer', minimum: 0 }, 'Inclusive Unix start, seconds.', true),
  query('end_time', { type: 'integer', minimum: 0 }, 'Exclusive Unix end, seconds; now when omitted.'),
  query('bucket_width', { type: 'string', const: '1d', default: '1d' }, 'Only daily buckets.'),
  query('group_by', { type: 'array', items: { type: 'string', const: 'line_item' } }, 'Only line_item (also accepted as group_by[]).'),
  query('limit', { type: 'integer', minimum: 1, maximum: 31, default: 7 }, 'Buckets per page.'),
  query('page', { type: 'string' }, 'Cursor from a previous page\'s next_page.'),
];

export const OPERATIONS: Record<string, OperationSpec> = {
  'POST /v1/chat/completions': {
    summary: 'Chat completion, also audio captioning',
    tag: 'Chat',
    responses: {
      200: {
        description: 'The completion; with `stream: true` a server-sent event stream of chat.completion.chunk objects ending with `data: [DONE]`.',
        content: { 'application/json': { schema: ref('ClientChatCompletion') }, 'text/event-stream': media('text/event-stream') },
      },
    },
    errors: [404, 502],
  },
  'POST /v1/audio/speech': {
    summary: 'Text-to-speech',
    tag: 'Audio',
    responses: {
      200: {
        description: 'The audio itself; with `stream_format: sse`, speech.audio.delta and speech.audio.done events.',
        content: {
          ...Object.fromEntries(SPEECH_AUDIO.map((type) => [type, media(type)])),
          'text/event-stream': media('text/event-stream'),
        },
      },
    },
    errors: [404, 502],
  },
  'GET /v1/audio/voices': {
    summary: 'List the preset voices of a model',
    tag: 'Audio',
    responses: { 200: json('The voices; an alias lists the union of its members\' presets.', ref('VoiceListResponse')) },
    errors: [400, 404],
  },
  'POST /v1/audio/transcriptions': {
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
  'POST /v1/images/{path}': {
    summary: 'Relay an image request (generations as JSON; edits and variations as multipart/form-data)',
    tag: 'Images',
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref('ImageGenerationRequest') }, 'multipart/form-data': { schema: ref('ImageEditRequest') } },
    },
    responses: { 200: json('The upstream image response, verbatim.', ref('ImagesResponse')) },
    errors: [400, 404, 502],
  },
  'GET /v1/models': {
    summary: 'List models',
    tag: 'Models',
    responses: { 200: json('The models the gateway can serve, with pricing and capabilities.', ref('ListModelsResponse')) },
  },
  'GET /v1/organization/costs': {
    summary: 'Daily cost buckets of the organization (requires a payment method)',
    tag: 'Organization',
    parameters: COST_QUERY,
    responses: { 200: json('A page of daily UTC buckets in ascending time order.', ref('CostPage')) },
    errors: [400, 422],
  },
  'POST /v1/decisions': {
    summary: 'Typed answers to questions about evidence',
    tag: 'Decisions',
    responses: { 200: json('One answer per question, in question order.', ref('DecisionResponse')) },
    errors: [404, 502],
  },
  '* /v1/systemone': {
    summary: 'Retired: answers 410 with error code endpoint_removed',
    tag: 'Retired',
    responses: {},
    errors: [410],
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
