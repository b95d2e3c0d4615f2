import { generatedImageCount } from './image-response';

describe('generatedImageCount', () => {
  it('counts the images in an images response', () => {
    expect(generatedImageCount(Buffer.from('{"created": 1, "data": [{"url": "a"}, {"b64_json": "b"}]}'))).toBe(2);
    expect(generatedImageCount(Buffer.from('{"data": []}'))).toBe(0);
  });

  it('refuses what is not an images response with 502', () => {
    for (const body of ['not json', '{"images": []}', 'null', '[1, 2]']) {
      expect(() => generatedImageCount(Buffer.from(body))).toThrow(expect.objectContaining({ status: 502, code: 'invalid_upstream_response' }));
    }
  });
});
