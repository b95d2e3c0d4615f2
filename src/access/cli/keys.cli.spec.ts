import { callFor, newManagementKey, runKeysCli } from './keys.cli';
import { hashApiKey } from '../key-hash';

describe('keys CLI', () => {
  it('turns each command into its management API call', () => {
    expect(callFor(['create', '--org', 'org-a', '--org', 'org-b', '--name', 'c1', '--limit-usd', '0.5', '--limit-reset', 'daily', '--expires', '2027-01-01'])).toEqual({
      method: 'POST', path: '/v1/keys',
      body: { name: 'c1', organizations: ['org-a', 'org-b'], limit_usd: '0.5', limit_reset: 'daily', expires_at: '2027-01-01T00:00:00.000Z' },
    });
    expect(callFor(['list', '--limit', '5'])).toEqual({ method: 'GET', path: '/v1/keys?limit=5' });
    expect(callFor(['disable', 'key_1'])).toEqual({ method: 'PATCH', path: '/v1/keys/key_1', body: { disabled: true } });
    expect(callFor(['enable', 'key_1'])).toEqual({ method: 'PATCH', path: '/v1/keys/key_1', body: { disabled: false } });
    expect(callFor(['revoke', 'key/1'])).toEqual({ method: 'DELETE', path: '/v1/keys/key%2F1' });
    expect(callFor(['budget', 'org-a', '--limit-usd', '10', '--limit-reset', 'monthly'])).toEqual({ method: 'PUT', path: '/v1/organizations/org-a/budget', body: { limit_usd: '10', limit_reset: 'monthly' } });
    expect(callFor(['budget', 'org-a', '--none'])).toEqual({ method: 'PUT', path: '/v1/organizations/org-a/budget', body: { limit_usd: null } });
    expect(callFor(['budget', 'org-a'])).toEqual({ method: 'GET', path: '/v1/organizations/org-a/budget' });
    expect(callFor(['usage-format', 'org-a', 'openai'])).toEqual({ method: 'PUT', path: '/v1/organizations/org-a/usage-format', body: { usage_format: 'openai' } });
    expect(callFor(['usage-format', 'org-a'])).toEqual({ method: 'GET', path: '/v1/organizations/org-a/usage-format' });
    expect(() => callFor(['usage-format'])).toThrow('usage-format needs one organization id');
  });

  it('refuses what it cannot send', () => {
    expect(() => callFor(['create', '--name', 'x'])).toThrow('at least one --org');
    expect(() => callFor(['create', '--org', 'org-a', '--config', 'f.yaml'])).toThrow('unknown option --config');
    expect(() => callFor(['revoke'])).toThrow('needs one key id');
    expect(() => callFor(['rotate', 'x'])).toThrow('usage');
    expect(() => callFor(['create', '--org'])).toThrow('--org needs a value');
  });

  it('prints a management key once with only its hash in the entry', () => {
    const { plainKey, entry } = newManagementKey('mgmt-ops');
    expect(entry).toEqual({ id: 'mgmt-ops', hash: hashApiKey(plainKey) });
  });

  it('needs GATEWAY_MANAGEMENT_KEY, and reports a refusal with exit code 1', async () => {
    const out: string[] = [];
    await expect(runKeysCli(['list'], { env: {}, fetch, out: (t) => out.push(t) })).rejects.toThrow('GATEWAY_MANAGEMENT_KEY');
    const refusing = (async () => new Response(JSON.stringify({ error: { code: 'key_revoked', message: 'gone' } }), { status: 409 })) as unknown as typeof fetch;
    expect(await runKeysCli(['revoke', 'key_1'], { env: { GATEWAY_MANAGEMENT_KEY: 'm' }, fetch: refusing, out: (t) => out.push(t) })).toBe(1);
    expect(out.join('')).toContain('409 key_revoked: gone');
  });

  it('lists names stored before they were refused with every terminal control escaped', async () => {
    const stored = ['evil\u202Etxt.exe', 'two\r\nlines', 'nul\u0000bell\u0007', 'c1\u009bdel\u007f', 'iso\u2066late\u2069', 'plain name ü'];
    const data = stored.map((name, i) => ({ id: `key_${i}`, object: 'api_key', name }));
    const listing = (async () => new Response(JSON.stringify({ object: 'list', data }), { status: 200 })) as unknown as typeof fetch;
    const out: string[] = [];
    expect(await runKeysCli(['list'], { env: { GATEWAY_MANAGEMENT_KEY: 'm' }, fetch: listing, out: (t) => out.push(t) })).toBe(0);
    const printed = out.join('');
    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(printed).toContain('"name": "evil\\u202etxt.exe"');
    expect(printed).toContain('"name": "two\\r\\nlines"');
    expect(printed).toContain('"name": "c1\\u009bdel\\u007f"');
    expect(printed).toContain('"name": "plain name ü"');
    // Still JSON: the escapes read back as the stored names.
    expect((JSON.parse(printed) as { data: { name: string }[] }).data.map((key) => key.name)).toEqual(stored);
  });

  it('escapes them in a refusal message too', async () => {
    const refusing = (async () => new Response(JSON.stringify({ error: { code: 'x', message: 'name \u202Eab\nc' } }), { status: 400 })) as unknown as typeof fetch;
    const out: string[] = [];
    await runKeysCli(['get', 'key_1'], { env: { GATEWAY_MANAGEMENT_KEY: 'm' }, fetch: refusing, out: (t) => out.push(t) });
    expect(out.join('')).toBe('400 x: name \\u202eab\\u000ac\n');
  });
});
