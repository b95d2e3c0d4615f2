// Access control, rate limits and the error envelope through real HTTP (spec: Authentication, Errors).
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { hashApiKey } from '../../src/access/key-hash';

const COSTS = '/v1/organization/costs?start_time=0';

describe('access control and rate limits', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.organizations.push(
          { id: 'org-small', payment_method: true, rate_limit: { requests: 3, window_seconds: 60 } },
          { id: 'org-unpaid', payment_method: false, rate_limit: { requests: 60, window_seconds: 60 } },
        );
        config.keys.push(
          { id: 'k-small-1', hash: hashApiKey('small-1'), owner: 't', organizations: ['org-small'], default_organization: 'org-small' },
          { id: 'k-small-2', hash: hashApiKey('small-2'), owner: 't', organizations: ['org-small', 'org-demo'], default_organization: 'org-demo' },
          { id: 'k-unpaid', hash: hashApiKey('unpaid'), owner: 't', organizations: ['org-unpaid'], default_organization: 'org-unpaid' },
          { id: 'k-expired', hash: hashApiKey('expired'), owner: 't', organizations: ['org-demo'], default_organization: 'org-demo', expires_at: '2020-01-01T00:00:00Z' },
        );
      },
    });
  });
  afterAll(() => gw.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${gw.baseUrl}${path}`, { headers });
  const bearer = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });

  async function expectError(res: Response, status: number, code: string, type: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await res.json()) as any).toEqual({ error: { message: expect.any(String), type, param: null, code } });
  }

  it('401 for a missing, malformed, unknown or expired key', async () => {
    await expectError(await get(COSTS), 401, 'missing_api_key', 'authentication_error');
    await expectError(await get(COSTS, { authorization: 'Token abc' }), 401, 'invalid_api_key', 'authentication_error');
    await expectError(await get(COSTS, bearer('nope')), 401, 'invalid_api_key', 'authentication_error');
    await expectError(await get(COSTS, bearer('expired')), 401, 'expired_api_key', 'authentication_error');
  });

  it('403 for a malformed X-Organization-Id or an organization the key is not a member of', async () => {
    await expectError(await get(COSTS, bearer(gw.apiKey, { 'x-organization-id': 'acme' })), 403, 'malformed_organization_id', 'permission_error');
    await expectError(await get(COSTS, bearer(gw.apiKey, { 'x-organization-id': `org-${'a'.repeat(65)}` })), 403, 'malformed_organization_id', 'permission_error');
    await expectError(await get(COSTS, bearer(gw.apiKey, { 'x-organization-id': 'org-small' })), 403, 'organization_not_member', 'permission_error');
  });

  it('402 when the organization has no payment method', async () => {
    await expectError(await get(COSTS, bearer('unpaid')), 402, 'payment_required', 'billing_error');
  });

  it('two keys of one organization share one budget; 429 carries accurate headers and does not count', async () => {
    const small2 = bearer('small-2', { 'x-organization-id': 'org-small' });
    const first = await get(COSTS, bearer('small-1'));
    expect(first.status).toBe(200);
    expect([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual(['3', '2']);
    const invalid = await get('/v1/organization/costs', small2);
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await get(COSTS, bearer('small-1'))).headers.get('x-ratelimit-remaining')).toBe('0');
    for (const headers of [small2, bearer('small-1')]) {
      const refused = await get(COSTS, headers);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 59 && retryAfter <= 60).toBe(true);
      expect(((await refused.json()) as any).error.code).toBe('rate_limit_exceeded');
    }
    const demo = await get(COSTS, bearer('small-2'));
    expect(demo.status).toBe(200);
    const admitted = (await gw.events('RequestAdmitted')).filter((e) => (e.data as { organizationId: string }).organizationId === 'org-small');
    expect(admitted).toHaveLength(3);
  });

  it('the model and voice listings need no key', async () => {
    const res = await get('/v1/models');
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.object).toBe('list');
    expect(body.data.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(['aria', 'symphony-notes', 'chorus-voices', 'verdict']));
    expect(body.data[0]).not.toHaveProperty('upstream');
    expect((await get('/v1/audio/voices?model=chorus-voices')).status).toBe(200);
  });
});

describe('error envelope', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('410 endpoint_removed for the retired /v1/systemone, whatever the method', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${gw.baseUrl}/v1/systemone`, { method });
      expect(res.status).toBe(410);
      expect(((await res.json()) as any).error.code).toBe('endpoint_removed');
    }
  });

  it('404 with the envelope for an unknown path', async () => {
    const res = await fetch(`${gw.baseUrl}/v1/nope`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error).toMatchObject({ code: 'not_found', type: 'not_found_error' });
  });

  it('400 invalid_json for malformed JSON, never a 500', async () => {
    const res = await fetch(`${gw.baseUrl}/v1/systemone`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('invalid_json');
  });

  it('413 for a body just over 100 MiB, refused while reading; exactly 100 MiB is read', async () => {
    const limit = 100 * 1024 * 1024;
    const over = await fetch(`${gw.baseUrl}/v1/systemone`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(limit + 1, 0x20) });
    expect(over.status).toBe(413);
    expect(((await over.json()) as any).error.code).toBe('request_too_large');
    const at = await fetch(`${gw.baseUrl}/v1/systemone`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat([Buffer.from('{}'), Buffer.alloc(limit - 2, 0x20)]) });
    expect(at.status).toBe(410);
  }, 60_000);
});
