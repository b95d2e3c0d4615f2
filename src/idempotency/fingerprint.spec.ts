import { canonicalJson, formFingerprint, jsonFingerprint } from './fingerprint';

describe('request fingerprint', () => {
  it('is the same for the same JSON in another key order or spacing', () => {
    expect(jsonFingerprint('POST', '/v1/x', JSON.parse('{"b":1,"a":{"d":[1,2],"c":null}}'))).toBe(jsonFingerprint('POST', '/v1/x', JSON.parse('{ "a": { "c": null, "d": [1, 2] }, "b": 1 }')));
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: null } })).toBe('{"a":{"c":null,"d":[1,2]},"b":1}');
  });

  it('differs by method, path, a value, or the order of an array', () => {
    const base = jsonFingerprint('POST', '/v1/x', { a: [1, 2] });
    expect(jsonFingerprint('PUT', '/v1/x', { a: [1, 2] })).not.toBe(base);
    expect(jsonFingerprint('POST', '/v1/y', { a: [1, 2] })).not.toBe(base);
    expect(jsonFingerprint('POST', '/v1/x', { a: [2, 1] })).not.toBe(base);
    expect(jsonFingerprint('POST', '/v1/x', { a: [1, '2'] })).not.toBe(base);
  });

  it('fingerprints a form by its fields and file bytes, whatever boundary carried them', () => {
    const parts = [{ name: 'model', value: 'whisper' }, { name: 'file', value: Buffer.from([1, 2, 3]), filename: 'a.wav', contentType: 'audio/wav' }];
    expect(formFingerprint('POST', '/v1/t', parts)).toBe(formFingerprint('POST', '/v1/t', parts.map((part) => ({ ...part }))));
    expect(formFingerprint('POST', '/v1/t', [parts[0], { ...parts[1], value: Buffer.from([1, 2, 4]) }])).not.toBe(formFingerprint('POST', '/v1/t', parts));
    // No shifting of bytes between a name and a value makes two forms alike.
    expect(formFingerprint('POST', '/v1/t', [{ name: 'ab', value: 'c' }])).not.toBe(formFingerprint('POST', '/v1/t', [{ name: 'a', value: 'bc' }]));
  });

  it('never equals a JSON body of the same bytes', () => {
    expect(jsonFingerprint('POST', '/v1/t', 'x')).not.toBe(formFingerprint('POST', '/v1/t', [{ name: 'x', value: '' }]));
  });
});
