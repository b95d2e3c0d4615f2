import type { CatalogModel } from '../../catalog/catalog.types';
import { upstreamErrorFor } from '../../upstream/upstream-errors';
import { scrubCredentials } from './credential-scrub';

const line = (fields: object) => scrubCredentials(JSON.stringify(fields));

describe('scrubCredentials (every log line as written)', () => {
  it('masks credential-named JSON fields at any depth, and only those', () => {
    expect(JSON.parse(line({ api_key: 'k1', nested: { token: 't1', Client_Secret: 's1' }, tokens: 12, keyId: 'key-1', model: 'aria' }))).toEqual({
      api_key: '[redacted]', nested: { token: '[redacted]', Client_Secret: '[redacted]' }, tokens: 12, keyId: 'key-1', model: 'aria',
    });
  });

  it('masks fields of a JSON body logged as text (escaped once inside the line)', () => {
    const body = JSON.stringify({ model: 'aria', 'x-api-key': 'body-key-1', password: 'p"w' });
    const parsed = JSON.parse(line({ msg: 'upstream said', body }));
    expect(JSON.parse(parsed.body)).toEqual({ model: 'aria', 'x-api-key': '[redacted]', password: '[redacted]' });
  });

  it('masks bearer credentials, header dumps and query parameters inside messages', () => {
    const scrubbed = line({ msg: 'rejected Authorization: Bearer abc.def-123 at /v1/x?api_key=q1&model=aria&access_token=q2; cookie: session=c1' });
    for (const secret of ['abc.def-123', 'q1', 'q2', 'session=c1']) expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain('model=aria');
  });

  it('masks OpenAI-style secret keys wherever they are', () => {
    expect(line({ msg: 'key sk-gw-AbCdEf0123456789 was used', err: { message: 'sk-proj-zzzzzzzzzzzz' } })).not.toMatch(/sk-[A-Za-z]/);
  });

  it('leaves a line without credentials untouched', () => {
    const clean = JSON.stringify({ level: 30, requestId: 'r-1', msg: 'request completed', res: { statusCode: 200 }, responseTime: 1.5 });
    expect(scrubCredentials(clean)).toBe(clean);
  });
});

describe('an upstream error that echoes the credentials it was sent', () => {
  const model = { id: 'aria', upstream: { base_url: 'http://u', api_key: 'plain-upstream-secret', timeout_ms: 1000, cold_start_seconds: 0 } } as CatalogModel;

  it.each([400, 500])('reaches the client without them (HTTP %i)', (status) => {
    const echo = JSON.stringify({ error: { message: 'invalid credentials plain-upstream-secret (sent as Authorization: Bearer plain-upstream-secret)' } });
    const error = upstreamErrorFor(model, status, undefined, echo);
    expect(error.message).toContain('invalid credentials');
    expect(error.message).not.toContain('plain-upstream-secret');
  });
});
