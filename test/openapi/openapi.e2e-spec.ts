// The served /openapi.json: valid OpenAPI 3.1 (checked by a 3.1 validator), truly 3.1 (no
// `nullable`), every spec endpoint with its methods, and the bearer key required exactly where
// the spec says, which the live gateway must also enforce.
import { Validator } from '@seriousme/openapi-schema-validator';
import { OPERATIONS } from '../../src/openapi/operations';
import { startTestGateway, TestGateway } from '../support/test-gateway';

interface Operation {
  security?: unknown[];
  deprecated?: boolean;
  parameters?: { name: string; in: string; schema: { enum?: string[] } }[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { description?: string; $ref?: string; content?: Record<string, { schema: { $ref?: string } }> }>;
}
type Schema = { properties: Record<string, Record<string, unknown>>; required?: string[]; allOf?: unknown[] };
type Document = { openapi: string; info: { version: string }; servers: unknown; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown>; responses: Record<string, { headers: object }> } };

/** Spec "Endpoints" table plus the operational endpoints; `true` = needs the key. */
const SPEC_OPERATIONS: [method: string, path: string, keyed: boolean][] = [
  ['post', '/v1/chat/completions', true],
  ['post', '/v1/audio/speech', true],
  ['get', '/v1/audio/voices', false],
  ['post', '/v1/audio/transcriptions', true],
  ['post', '/v1/images/{path}', true],
  ['get', '/v1/models', false],
  ['get', '/v1/organization/costs', true],
  ['post', '/v1/decisions', true],
  ['post', '/v1/systemone', false],
  ['get', '/healthz', false],
  ['get', '/readyz', false],
];
const KEYED_ERRORS = ['401', '402', '403', '429', '503'];
/** 503 also answers readiness, so an open endpoint may list it on its own account. */
const KEY_ONLY_ERRORS = ['401', '402', '403', '429'];

/** OpenAPI path identity ignores template parameter names. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'generations');

function operations(document: Document): [method: string, path: string, operation: Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => [method, path, operation] as [string, string, Operation]));
}

function nullableKeywords(value: unknown, at = '#'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => nullableKeywords(item, `${at}/${index}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === 'nullable' && typeof inner === 'boolean' ? [at] : nullableKeywords(inner, `${at}/${key}`)));
}

describe('GET /openapi.json', () => {
  let gw: TestGateway;
  let document: Document;
  let response: Response;

  beforeAll(async () => {
    gw = await startTestGateway();
    response = await fetch(`${gw.baseUrl}/openapi.json`);
    document = (await response.json()) as Document;
  });
  afterAll(() => gw.close());

  it('is served without a key as JSON, version 0.1.37 of an OpenAPI 3.1.0 document', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('0.1.37');
    expect(document.servers).toEqual([{ url: '/' }]);
  });

  it('passes an OpenAPI 3.1 validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is 3.1 through and through: no nullable keyword, null as a type', () => {
    expect(nullableKeywords(document)).toEqual([]);
    const apiError = document.components.schemas.ApiError as { properties: Record<string, unknown> };
    expect(apiError.properties.type).toMatchObject({ type: ['string', 'null'] });
    expect(apiError.properties.code).toEqual(expect.objectContaining({ oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] }));
  });

  it('lists every path of the spec with its method', () => {
    const listed = operations(document).map(([method, path]) => `${method} ${shape(path)}`);
    const missing = SPEC_OPERATIONS.map(([method, path]) => `${method} ${shape(path)}`).filter((operation) => !listed.includes(operation));
    expect(missing).toEqual([]);
  });

  it('requires the bearer key exactly on the keyed endpoints, with their error responses', () => {
    const byShape = new Map(operations(document).map(([method, path, operation]) => [`${method} ${shape(path)}`, operation]));
    for (const [method, path, keyed] of SPEC_OPERATIONS) {
      const operation = byShape.get(`${method} ${shape(path)}`);
      if (!operation) continue;
      expect({ path, security: operation.security }).toEqual({ path, security: keyed ? [{ bearer: [] }] : undefined });
      const statuses = Object.keys(operation.responses);
      const listed = (keyed ? KEYED_ERRORS : KEY_ONLY_ERRORS).filter((status) => statuses.includes(status));
      expect({ path, listed }).toEqual({ path, listed: keyed ? KEYED_ERRORS : [] });
    }
  });

  it('matches what the gateway enforces: a keyless call is refused with 401 exactly where security is listed', async () => {
    for (const [method, path, operation] of operations(document).filter(([method]) => method === 'get' || method === 'post')) {
      const answer = await fetch(`${gw.baseUrl}${concrete(path)}`, { method: method.toUpperCase(), ...(method === 'post' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
      expect({ method, path, unauthorized: answer.status === 401 }).toEqual({ method, path, unauthorized: operation.security !== undefined });
    }
  });

  it('answers 429 with Retry-After and the rate-limit headers, and 410 on the retired endpoint', () => {
    expect(Object.keys(document.components.responses.RateLimited.headers)).toEqual(expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining']));
    expect(document.paths['/v1/systemone'].post.responses['410']).toEqual({ $ref: '#/components/responses/Gone' });
  });

  describe('is as strict as the validation', () => {
    const schema = (name: string) => document.components.schemas[name] as Schema;
    const bodyOf = (path: string, type: string) => document.paths[path].post.requestBody!.content[type].schema.$ref.split('/').pop()!;

    it('types the decisions input: text, or user messages of input_text and input_image parts', () => {
      const input = schema(bodyOf('/v1/decisions', 'application/json')).properties.input as { oneOf: { type: string; items?: Schema }[] };
      expect(input.oneOf.map((branch) => branch.type)).toEqual(['string', 'array']);
      const message = input.oneOf[1].items!;
      expect(message.required).toEqual(['role', 'content']);
      expect(message.properties.role).toEqual({ type: 'string', const: 'user' });
      const parts = ((message.properties.content as { oneOf: { items?: { oneOf: Schema[] } }[] }).oneOf[1].items!.oneOf).map((part) => part.properties.type);
      expect(parts).toEqual([{ type: 'string', const: 'input_text' }, { type: 'string', const: 'input_image' }]);
    });

    it('requires choices on choice questions and levels on score questions, with their counts', () => {
      const question = schema('DecisionQuestionDto');
      expect(question.required).toEqual(['type', 'instructions']);
      const [choice, score] = question.allOf as { if: unknown; then: Schema }[];
      expect([choice.if, score.if]).toEqual([
        { properties: { type: { const: 'choice' } }, required: ['type'] },
        { properties: { type: { const: 'score' } }, required: ['type'] },
      ]);
      expect(choice.then).toMatchObject({ required: ['choices'], properties: { choices: { type: 'array', minItems: 2, maxItems: 255 } } });
      expect(score.then).toMatchObject({ required: ['levels'], properties: { levels: { type: 'array', minItems: 2, maxItems: 10 } } });
    });

    it('states the speech request\'s cross-field rules: only pcm and wav stream, ref_text needs ref_audio', () => {
      const rules = schema(bodyOf('/v1/audio/speech', 'application/json')).allOf as { if?: unknown; then?: unknown }[];
      expect(rules[0]).toEqual({
        if: { properties: { stream_format: { type: 'string' } }, required: ['stream_format'] },
        then: { properties: { response_format: { enum: ['pcm', 'wav', null] } } },
      });
      expect(rules[1].then).toEqual({ properties: { ref_audio: { type: 'string', minLength: 1 } }, required: ['ref_audio'] });
    });

    it('limits chat modalities to the spec\'s OutputModality values', () => {
      const modalities = schema(bodyOf('/v1/chat/completions', 'application/json')).properties.modalities;
      expect(modalities).toMatchObject({ type: ['array', 'null'], items: { $ref: '#/components/schemas/OutputModality' } });
    });

    it('names the image route /v1/images/{path} (the multipart edit form) and documents each operation with its body', () => {
      const template = document.paths['/v1/images/{path}'].post;
      expect(template.parameters).toEqual([expect.objectContaining({ name: 'path', in: 'path', schema: { type: 'string', enum: ['edits'] } })]);
      expect(Object.keys(template.requestBody!.content)).toEqual(['multipart/form-data']);
      expect(schema(bodyOf('/v1/images/{path}', 'multipart/form-data')).required).toEqual(['model', 'prompt', 'image']);
      expect(Object.keys(document.paths['/v1/images/variations'].post.requestBody!.content)).toEqual(['multipart/form-data']);
      expect(schema(bodyOf('/v1/images/variations', 'multipart/form-data')).required).toEqual(['model', 'image']);
      expect(Object.keys(document.paths['/v1/images/generations'].post.requestBody!.content)).toEqual(['application/json']);
    });

    it('describes streams as text/event-stream events carrying their chunk schemas', () => {
      const chat = document.paths['/v1/chat/completions'].post.responses['200'].content!['text/event-stream'].schema;
      const speech = document.paths['/v1/audio/speech'].post.responses['200'].content!['text/event-stream'].schema;
      expect([chat, speech]).toEqual([{ $ref: '#/components/schemas/ChatCompletionStreamEvent' }, { $ref: '#/components/schemas/SpeechStreamEvent' }]);
      const data = schema('ChatCompletionStreamEvent').properties.data as { anyOf: Record<string, unknown>[] };
      expect(data.anyOf[0]).toMatchObject({ contentMediaType: 'application/json', contentSchema: { oneOf: [{ $ref: '#/components/schemas/ChatCompletionChunk' }, { $ref: '#/components/schemas/ApiErrorResponse' }] } });
      expect(data.anyOf[1]).toEqual({ type: 'string', const: '[DONE]' });
    });

    it('marks every method of the retired /v1/systemone deprecated', () => {
      const methods = Object.entries(document.paths['/v1/systemone']);
      expect(methods.map(([method]) => method)).toEqual(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
      expect(methods.filter(([, operation]) => operation.deprecated !== true)).toEqual([]);
    });
  });

  it('documents every operation in operations.ts, and operations.ts names no route that does not exist', () => {
    const undocumented = operations(document).filter(([, , operation]) => operation.responses['200']?.description === 'Not documented in operations.ts.');
    expect(undocumented.map(([method, path]) => `${method} ${path}`)).toEqual([]);
    const served = operations(document).map(([method, path]) => `${method.toUpperCase()} ${shape(path)}`);
    const stale = Object.keys(OPERATIONS).filter((key) => {
      const [method, path] = key.split(' ');
      return !served.some((operation) => operation.endsWith(` ${shape(path)}`) && (method === '*' || operation.startsWith(`${method} `)));
    });
    expect(stale).toEqual([]);
  });
});
