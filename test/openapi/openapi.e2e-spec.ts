// The served /openapi.json: valid OpenAPI 3.1 (checked by a 3.1 validator), truly 3.1 (no
// `nullable`), every spec endpoint with its methods, and the bearer key required exactly where
// the spec says, which the live gateway must also enforce.
import { Validator } from '@seriousme/openapi-schema-validator';
import { OPERATIONS } from '../../src/openapi/operations';
import { startTestGateway, TestGateway } from '../support/test-gateway';

interface Operation {
  security?: unknown[];
  responses: Record<string, { description?: string; $ref?: string }>;
}
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
