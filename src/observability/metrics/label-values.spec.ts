import { methodLabel, SeriesCache, statusLabel } from './label-values';

describe('label values', () => {
  it('keeps standard methods and folds anything else into OTHER', () => {
    expect(['GET', 'POST', 'DELETE', 'OPTIONS'].map(methodLabel)).toEqual(['GET', 'POST', 'DELETE', 'OPTIONS']);
    expect(methodLabel('PROPFIND')).toBe('OTHER');
  });

  it('gives status codes as text, and codes past 599 one label', () => {
    expect([100, 200, 404, 599].map(statusLabel)).toEqual(['100', '200', '404', '599']);
    expect(statusLabel(600)).toBe('other');
    expect(statusLabel(999)).toBe('other');
  });

  it('creates a series once per pair of values and returns the same one after', () => {
    const create = jest.fn((a: string, b: string) => ({ key: `${a}/${b}` }));
    const cache = new SeriesCache(create);
    const first = cache.get('aria', '/v1/chat/completions');
    expect(cache.get('aria', '/v1/chat/completions')).toBe(first);
    expect(cache.get('aria', '/v1/audio/speech')).toEqual({ key: 'aria//v1/audio/speech' });
    expect(cache.get('rhythm', '/v1/chat/completions')).not.toBe(first);
    expect(create).toHaveBeenCalledTimes(3);
  });
});
