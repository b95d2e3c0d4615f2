// Issue 27: a wrong method on a real path is 405 with `Allow` (derived from the registered routes) in
// the spec's error envelope; unknown paths stay 404. HEAD follows GET; OPTIONS is one more method the
// gateway does not serve (no CORS), so it is a 405 too.
import { APIError } from 'openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';

type Document = { paths: Record<string, Record<string, unknown>> };

describe('405 Method Not Allowed (issue 27)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const call = (method: string, path: string, init: RequestInit = {}) => fetch(`${gw.baseUrl}${path}`, { method, ...init });

  async function expect405(response: Response, allow: string, head = false): Promise<void> {
    expect({ status: response.status, allow: response.headers.get('allow') }).toEqual({ status: 405, allow });
    expect(response.headers.get('x-request-id')).toBeTruthy();
    if (head) return void expect(await response.text()).toBe('');
    expect(await response.json()).toEqual({
      error: { message: expect.stringContaining(`allowed: ${allow}.`), type: 'invalid_request_error', param: null, code: 'method_not_allowed' },
    });
  }

  it('answers GET on the chat endpoint 405 with Allow: POST', async () => {
    await expect405(await call('GET', '/v1/chat/completions'), 'POST');
  });

  it('answers a POST-only endpoint 405 for HEAD (without a body) and for OPTIONS', async () => {
    await expect405(await call('HEAD', '/v1/chat/completions'), 'POST', true);
    await expect405(await call('OPTIONS', '/v1/chat/completions'), 'POST');
  });

  it('serves HEAD wherever GET is served, and lists both', async () => {
    const head = await call('HEAD', '/v1/models');
    expect(head.status).toBe(200);
    await expect405(await call('DELETE', '/v1/models'), 'GET, HEAD');
  });

  it('answers before reading the body or checking the key: a wrong method is wrong whoever sends what', async () => {
    const json = { headers: { 'content-type': 'application/json' }, body: '{"model": "aria"' };
    await expect405(await call('POST', '/v1/models', json), 'GET, HEAD');
    await expect405(await call('PUT', '/v1/models', { headers: { 'content-type': 'text/plain' }, body: 'x' }), 'GET, HEAD');
    await expect405(await call('GET', '/v1/images/edits', { headers: { authorization: 'Bearer nope' } }), 'POST');
  });

  it('keeps unknown paths 404 and the retired endpoint 410 for every method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const unknown = await call(method, '/v1/nothing-here');
      expect({ status: unknown.status, allow: unknown.headers.get('allow'), code: ((await unknown.json()) as any).error.code }).toEqual({
        status: 404, allow: null, code: 'not_found',
      });
      expect((await call(method, '/v1/systemone')).status).toBe(410);
    }
  });

  it('is what the OpenAI SDK reports as the error message', async () => {
    const error = await gw.openai().get('/chat/completions').then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toBe('405 GET is not allowed on /v1/chat/completions; allowed: POST.');
  });

  it('lists in Allow exactly the methods the OpenAPI document gives each path (HEAD with GET)', async () => {
    const document = (await (await call('GET', '/openapi.json')).json()) as Document;
    const checked: string[] = [];
    for (const [template, item] of Object.entries(document.paths)) {
      const methods = Object.keys(item).map((m) => m.toUpperCase());
      if (methods.includes('PATCH') && methods.includes('POST')) continue; // an @All route: nothing is left to refuse
      const unserved = ['PATCH', 'PUT', 'POST'].find((method) => !methods.includes(method))!;
      const path = template.replace(/\{[^}]+\}/g, 'generations');
      const response = await call(unserved, path);
      const allow = response.headers.get('allow')?.split(', ') ?? [];
      expect({ path, status: response.status, allow: allow.sort() }).toEqual({
        path, status: 405, allow: [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : [])])].sort(),
      });
      checked.push(path);
    }
    expect(checked).toEqual(expect.arrayContaining(['/v1/chat/completions', '/v1/models', '/v1/audio/voices', '/v1/images/generations', '/openapi.json']));
  });
});
