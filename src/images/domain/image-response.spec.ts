import { imagesResponse } from './image-response';

const body = (count: number) => Buffer.from(JSON.stringify({ created: 1, data: Array.from({ length: count }, (_, i) => ({ url: `u${i}` })) }));

describe('imagesResponse', () => {
  it('counts the images and keeps the bytes as they came when there are at most n', () => {
    const sent = Buffer.from('{"created": 1, "data": [{"url": "a"}, {"b64_json": "b"}]}');
    expect(imagesResponse(sent, 2)).toEqual({ body: sent, returned: 2 });
    expect(imagesResponse(sent, 2).body).toBe(sent);
    expect(imagesResponse(Buffer.from('{"data": []}'), 1).returned).toBe(0);
  });

  it('cuts data to n when the upstream returned n + 1, keeping the other fields', () => {
    const cut = imagesResponse(body(3), 2);
    expect(cut.returned).toBe(3);
    expect(JSON.parse(cut.body.toString())).toEqual({ created: 1, data: [{ url: 'u0' }, { url: 'u1' }] });
  });

  it('refuses what is not an images response with 502', () => {
    for (const sent of ['not json', '{"images": []}', 'null', '[1, 2]']) {
      expect(() => imagesResponse(Buffer.from(sent), 1)).toThrow(expect.objectContaining({ status: 502, code: 'invalid_upstream_response' }));
    }
  });
});
