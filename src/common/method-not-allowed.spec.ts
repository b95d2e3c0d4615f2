import { allowHeader, missingMethods } from './method-not-allowed';

const SUPPORTED = ['GET', 'HEAD', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY'];

describe('the methods a route serves and refuses', () => {
  it('lists the served methods in the order the server supports them', () => {
    expect(allowHeader(new Set(['POST']), SUPPORTED)).toBe('POST');
    expect(allowHeader(new Set(['HEAD', 'GET']), SUPPORTED)).toBe('GET, HEAD');
  });

  it('refuses every other supported method, OPTIONS and HEAD included', () => {
    expect(missingMethods(new Set(['POST']), SUPPORTED)).toEqual(['GET', 'HEAD', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'QUERY']);
    expect(missingMethods(new Set(SUPPORTED), SUPPORTED)).toEqual([]);
  });
});
