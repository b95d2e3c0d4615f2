import { redactQueryCredentials } from './redact-query';

describe('credentials in query strings', () => {
  it.each([
    ['/v1/models?api_key=sk-gw-secret', '/v1/models?api_key=[redacted]'],
    ['/v1/models?key=k1&token=t1&access_token=a1', '/v1/models?key=[redacted]&token=[redacted]&access_token=[redacted]'],
    ['/v1/audio/voices?model=chorus&API_KEY=sk-x&limit=2', '/v1/audio/voices?model=chorus&API_KEY=[redacted]&limit=2'],
    ['/x?api%5Fkey=sk-encoded', '/x?api%5Fkey=[redacted]'],
    ['/x?token[]=a&token[]=b', '/x?token[]=[redacted]&token[]=[redacted]'],
    ['/x?api_key', '/x?api_key=[redacted]'],
    ['/x?%E0%A4%A=1&key=k', '/x?%E0%A4%A=1&key=[redacted]'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactQueryCredentials(url)).toBe(logged);
  });

  it('leaves URLs without credentials as they are', () => {
    for (const url of ['/v1/models', '/v1/organization/costs?start_time=0&group_by=line_item', '/x?keyword=cat&tokens=5', '/x?']) {
      expect(redactQueryCredentials(url)).toBe(url);
    }
  });
});
