import { boundaryOf, canonicalJson, jsonFingerprint, multipartFingerprint } from './fingerprint';

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

  it('never equals a form of the same bytes', () => {
    expect(jsonFingerprint('POST', '/v1/t', 'x')).not.toBe(multipartFingerprint('POST', '/v1/t', Buffer.from('"x"'), 'b'));
  });
});

describe('multipart fingerprint', () => {
  const form = (boundary: string, fileBytes: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\n${fileBytes}\r\n--${boundary}--\r\n`, 'latin1');

  it('is the same form whatever the boundary', () => {
    expect(multipartFingerprint('POST', '/v1/t', form('AAA', 'abc'), 'AAA')).toBe(multipartFingerprint('POST', '/v1/t', form('bbbbbbbb', 'abc'), 'bbbbbbbb'));
  });

  it('differs by one byte of a file', () => {
    expect(multipartFingerprint('POST', '/v1/t', form('AAA', 'abc'), 'AAA')).not.toBe(multipartFingerprint('POST', '/v1/t', form('AAA', 'abd'), 'AAA'));
  });

  it('reads the boundary, quoted or not, and nothing from another content type', () => {
    expect(boundaryOf('multipart/form-data; boundary=----x1')).toBe('----x1');
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(boundaryOf('application/json')).toBeNull();
    expect(boundaryOf(undefined)).toBeNull();
  });
});
