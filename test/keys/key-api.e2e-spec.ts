// The key API end to end through real HTTP: a management key issues a key, the key works on a model
// endpoint, listing shows no secret, disable -> 401, enable -> works, revoke -> 401 revoked_api_key
// (also as the openai SDK's AuthenticationError); the wrong kind of key is refused both ways; and the
// store holds exactly the events the changes made.
import OpenAI from 'openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { hashApiKey } from '../../src/access/key-hash';
import { runKeysCli } from '../../src/access/cli/keys.cli';
import { MANAGEMENT_RATE_LIMIT } from '../../src/rate-limits/management-rate-window';
import { authenticate } from '../../src/access/authenticate';
import { microsToUsd } from '../../src/budgets/spend-limits';

const MANAGEMENT_KEY = 'sk-mgmt-e2e-0123456789abcdef';
const BURST_KEY = 'sk-mgmt-burst-0123456789abcdef';
jest.setTimeout(60_000);

describe('key API', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.management_keys.push({ id: 'mgmt-test', hash: hashApiKey(MANAGEMENT_KEY) });
        config.management_keys.push({ id: 'mgmt-burst', hash: hashApiKey(BURST_KEY) });
      },
    });
  });
  afterAll(() => gw?.close());

  const call = (method: string, path: string, body?: unknown, key = MANAGEMENT_KEY) =>
    fetch(`${gw.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any, headers: res.headers }));

  /** The sum of CostPriced of the requests a key made (their UsageMeasured names the key). */
  async function costOfKey(keyId: string): Promise<bigint> {
    const ofKey = new Set((await gw.events('UsageMeasured')).filter((e) => (e.data as any).keyId === keyId).map((e) => (e.data as any).requestId));
    const costs = (await gw.events('CostPriced')).filter((e) => ofKey.has((e.data as any).requestId));
    return costs.reduce((sum, e) => sum + BigInt((e.data as any).costUsdMicros), 0n);
  }

  const chat = (key: string) => call('POST', '/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'hi' }] }, key);

  it('issues, uses, lists, disables, enables and revokes a key; every change is an event', async () => {
    const issued = await call('POST', '/v1/keys', { name: 'customer-1', organizations: [gw.orgId], limit_usd: '0.123456', limit_reset: 'daily', rate_limit: { requests: 10, window_seconds: 60 } });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ object: 'api_key', name: 'customer-1', source: 'api', limit_usd: '0.123456', limit_reset: 'daily', disabled: false, revoked: false });
    expect(issued.body.usage).toMatchObject({ spent_usd: '0', held_usd: '0', remaining_usd: '0.123456' });
    expect(issued.body.id).toMatch(/^key_/);
    expect(issued.body.key).toMatch(/^sk-gw-/);
    const { id, key } = issued.body as { id: string; key: string };

    expect((await chat(key)).status).toBe(200);
    const caller = await authenticate(gw.gateway.runtime.accessStore, { authorization: `Bearer ${key}` }, new Date());
    expect(caller).toMatchObject({ keyId: id, limits: { key: { limitUsdMicros: 123_456n, reset: 'daily' } }, keyRateLimit: { requests: 10, window_seconds: 60 } });

    const own = await call('GET', '/v1/key', undefined, key);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id, limit_usd: '0.123456', limit_reset: 'daily', rate_limit: { requests: 10, window_seconds: 60 } });
    // Usage is what the budget ledger settled from the key's CostPriced events: exact micros, nothing held.
    const spentMicros = await costOfKey(id);
    expect(spentMicros).toBeGreaterThan(0n);
    const spent = microsToUsd(spentMicros);
    expect(own.body.usage).toMatchObject({ spent_usd: spent, held_usd: '0', remaining_usd: microsToUsd(123_456n - spentMicros) });
    expect((await call('GET', `/v1/keys/${id}`)).body.usage).toMatchObject({ spent_usd: spent, held_usd: '0' });

    const list = await call('GET', '/v1/keys?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.data.map((k: { id: string }) => k.id)).toEqual(expect.arrayContaining(['key-demo', id]));
    const listed = JSON.stringify(list.body);
    expect(listed).not.toContain(key);
    expect(listed).not.toContain(hashApiKey(key));
    expect(listed).not.toContain('sha256:');
    expect((await call('GET', `/v1/keys/${id}`)).body).not.toHaveProperty('key');

    expect((await call('PATCH', `/v1/keys/${id}`, { disabled: true })).body).toMatchObject({ disabled: true });
    const disabled = await chat(key);
    expect(disabled.status).toBe(401);
    expect(disabled.body.error).toMatchObject({ code: 'disabled_api_key', type: 'authentication_error' });

    expect((await call('PATCH', `/v1/keys/${id}`, { disabled: false, name: 'customer-one' })).body).toMatchObject({ disabled: false, name: 'customer-one' });
    expect((await chat(key)).status).toBe(200);

    const revoked = await call('DELETE', `/v1/keys/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id, revoked: true });
    const refused = await chat(key);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'revoked_api_key', type: 'authentication_error', message: 'This API key has been revoked.' });

    const sdkError = await gw.openai({ apiKey: key }).chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(sdkError).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((sdkError as InstanceType<typeof OpenAI.AuthenticationError>).message).toContain('This API key has been revoked.');
    expect((sdkError as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('revoked_api_key');

    const again = await call('PATCH', `/v1/keys/${id}`, { name: 'x' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('key_revoked');

    const stream = (await gw.events()).filter((e) => e.streamId === `api-key-${id}`);
    expect(stream.map((e) => e.type)).toEqual(['ApiKeyIssued', 'ApiKeyDisabled', 'ApiKeyChanged', 'ApiKeyEnabled', 'ApiKeyRevoked']);
    expect(stream.every((e) => e.metadata.schemaVersion === 1)).toBe(true);
    expect(stream[0].data).toMatchObject({ schemaVersion: 1, keyId: id, hash: hashApiKey(key), limitUsd: '0.123456', by: 'mgmt-test' });
    expect(JSON.stringify(stream)).not.toContain(key);
    expect(stream[2].data).toMatchObject({ changes: { name: 'customer-one' } });
  });

  it('refuses a management key on a model endpoint and a model key on a management endpoint', async () => {
    const onModel = await chat(MANAGEMENT_KEY);
    expect(onModel.status).toBe(403);
    expect(onModel.body.error).toMatchObject({ code: 'model_key_required', type: 'permission_error' });
    const onManagement = await call('GET', '/v1/keys', undefined, gw.apiKey);
    expect(onManagement.status).toBe(403);
    expect(onManagement.body.error).toMatchObject({ code: 'management_key_required', type: 'permission_error' });
    expect((await call('GET', '/v1/keys', undefined, 'sk-nobody')).status).toBe(401);
  });

  it('keeps configured keys read-only and answers 404 for unknown ids', async () => {
    const configured = await call('PATCH', '/v1/keys/key-demo', { disabled: true });
    expect(configured.status).toBe(409);
    expect(configured.body.error.code).toBe('configuration_key');
    expect((await call('DELETE', '/v1/keys/key-demo')).status).toBe(409);
    expect((await call('GET', '/v1/keys/key_nope')).body.error.code).toBe('key_not_found');
    expect((await call('DELETE', '/v1/keys/key_nope')).status).toBe(404);
  });

  it('validates limits, names and page sizes at and past their edges', async () => {
    const issue = (extra: Record<string, unknown>) => call('POST', '/v1/keys', { name: 'edge', organizations: [gw.orgId], ...extra });
    expect((await issue({ limit_usd: '0.000001' })).status).toBe(201);
    expect((await issue({ limit_usd: '0.0000001' })).status).toBe(422);
    expect((await issue({ limit_usd: 0.000001 })).body.limit_usd).toBe('0.000001');
    expect((await issue({ name: 'n'.repeat(100) })).status).toBe(201);
    expect((await issue({ name: 'n'.repeat(101) })).status).toBe(422);
    for (const name of ['evil\u202etxt.exe', 'two\r\nlines', 'nul\u0000', 'c1\u009b']) {
      const refused = await issue({ name });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', param: 'name' });
      expect(refused.body.error.message).toContain('must be printable');
    }
    expect((await issue({ name: 'clé 🔑 生产' })).status).toBe(201);
    expect((await issue({ organizations: ['org-unknown'] })).body.error.code).toBe('unknown_organization');
    expect((await call('GET', '/v1/keys?limit=100')).status).toBe(200);
    expect((await call('GET', '/v1/keys?limit=101')).status).toBe(422);
    const page = await call('GET', '/v1/keys?limit=1&offset=1');
    expect(page.body).toMatchObject({ object: 'list', has_more: true, next_offset: 2 });
    expect(page.body.data).toHaveLength(1);
  });

  it('issues and revokes through `npm run keys` (the CLI talks to the management API)', async () => {
    const out: string[] = [];
    const io = { env: { GATEWAY_URL: gw.baseUrl, GATEWAY_MANAGEMENT_KEY: MANAGEMENT_KEY }, fetch, out: (text: string) => out.push(text) };
    expect(await runKeysCli(['create', '--org', gw.orgId, '--name', 'from-cli', '--limit-usd', '2'], io)).toBe(0);
    const key = /API key \(shown once, store it now\): (\S+)/.exec(out.join(''))![1];
    const id = /"id": "(key_[^"]+)"/.exec(out.join(''))![1];
    expect((await chat(key)).status).toBe(200);
    expect(await runKeysCli(['revoke', id], io)).toBe(0);
    expect((await chat(key)).body.error.code).toBe('revoked_api_key');
    expect(await runKeysCli(['revoke', id], io)).toBe(1);
    expect(out.at(-1)).toContain('409 key_revoked');
  });

  it('refuses a runtime key once its expires_at has passed, and takes it back when the expiry is cleared', async () => {
    const { body } = await call('POST', '/v1/keys', { name: 'expiring', organizations: [gw.orgId], expires_at: '2099-01-01T00:00:00+02:00' });
    expect(body.expires_at).toBe('2098-12-31T22:00:00.000Z');
    expect((await chat(body.key)).status).toBe(200);
    await call('PATCH', `/v1/keys/${body.id as string}`, { expires_at: '2020-01-01T00:00:00Z' });
    expect((await chat(body.key)).body.error.code).toBe('expired_api_key');
    await call('PATCH', `/v1/keys/${body.id as string}`, { expires_at: null });
    expect((await chat(body.key)).status).toBe(200);
  });

  it('rate limits each management key: the last request of the window passes, the next gets 429 with Retry-After', async () => {
    const path = `/v1/organizations/${gw.orgId}/budget`;
    for (let i = 1; i < MANAGEMENT_RATE_LIMIT.requests; i++) expect((await call('GET', path, undefined, BURST_KEY)).status).toBe(200);
    const last = await call('GET', path, undefined, BURST_KEY);
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await call('GET', path, undefined, BURST_KEY);
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await call('GET', path)).status).toBe(200);
  });

  it('enforces a key\'s own rate limit at its edge, before the organization\'s, and lifts it when cleared', async () => {
    const { body } = await call('POST', '/v1/keys', { name: 'limited', organizations: [gw.orgId], rate_limit: { requests: 2, window_seconds: 600 } });
    expect((await chat(body.key)).status).toBe(200);
    expect((await chat(body.key)).status).toBe(200);
    const over = await chat(body.key);
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: 'rate_limit_exceeded', message: 'Rate limit of 2 requests per 600 s exceeded for this API key.' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(500);
    expect((await chat(gw.apiKey)).status).toBe(200);
    expect((await call('PATCH', `/v1/keys/${body.id as string}`, { rate_limit: null })).body.rate_limit).toBeNull();
    expect((await chat(body.key)).status).toBe(200);
  });

  it('sets an organization budget through an event, over the configured default', async () => {
    const set = await call('PUT', `/v1/organizations/${gw.orgId}/budget`, { limit_usd: 12.5, limit_reset: 'monthly' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ organization_id: gw.orgId, limit_usd: '12.5', limit_reset: 'monthly', source: 'api' });
    expect((await call('GET', `/v1/organizations/${gw.orgId}/budget`)).body).toMatchObject({ limit_usd: '12.5', source: 'api' });
    expect((await call('PUT', '/v1/organizations/org-nope/budget', { limit_usd: '1' })).status).toBe(404);
    const events = await gw.events('OrganizationBudgetSet');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ streamId: `organization-${gw.orgId}`, data: { schemaVersion: 1, limitUsd: '12.5', limitReset: 'monthly', by: 'mgmt-test' } });
    const caller = await gw.gateway.runtime.accessStore.findOrganization(gw.orgId);
    expect(caller?.budget).toEqual({ limit_usd: '12.5', limit_reset: 'monthly' });
  });
});
