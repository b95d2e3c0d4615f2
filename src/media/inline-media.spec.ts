import { decodeBareBase64, decodeStrictBase64, parseDataUrl, parseInlineMediaUrl } from './inline-media';
import { MediaError } from './media-error';

function errorOf(fn: () => unknown): MediaError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MediaError) return error;
    throw error;
  }
  throw new Error('expected a MediaError');
}

describe('decodeStrictBase64', () => {
  it('decodes canonical padded base64', () => {
    expect(decodeStrictBase64('aGVsbG8=').toString()).toBe('hello');
    expect(decodeStrictBase64('aGk=').toString()).toBe('hi');
    expect(decodeStrictBase64('aGV5').toString()).toBe('hey');
    expect(decodeStrictBase64('+/+/').equals(Buffer.from([0xfb, 0xff, 0xbf]))).toBe(true);
  });

  it.each([
    ['', 'the payload is empty'],
    ['aGVs bG8=', 'character " " at position 4 is not in the base64 alphabet'],
    ['aGVs\nbG8=', 'character "\\n" at position 4 is not in the base64 alphabet'],
    ['aGV-bG8_', 'character "-" at position 3 is not in the base64 alphabet'],
    ['aGVsbG8', 'length 7 is not a multiple of 4'],
    ['aGk', 'length 3 is not a multiple of 4'],
    ['aG==aGk=', "'=' padding at position 2 may only end the payload"],
    ['a===', "'=' padding at position 1 may only end the payload, at most twice"],
    ['aGVsbG8==', 'length 9 is not a multiple of 4'],
    ['aGV=bG8=', "'=' padding at position 3 may only end the payload"],
    ['aGl=', 'the bits before the padding are not zero'],
    ['aGk/aB==', 'the bits before the padding are not zero'],
  ])('rejects %j: %s', (text, problem) => {
    const error = errorOf(() => decodeStrictBase64(text, 'messages[0].content[0].input_audio.data'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_base64');
    expect(error.message).toContain(problem);
    expect(error.param).toBe('messages[0].content[0].input_audio.data');
  });
});

describe('parseDataUrl', () => {
  it('returns the declared MIME type and decoded bytes', () => {
    expect(parseDataUrl('data:audio/wav;base64,aGk=')).toEqual({ mimeType: 'audio/wav', bytes: Buffer.from('hi') });
  });

  it('accepts parameters before ;base64 and a missing MIME type, case-insensitively', () => {
    expect(parseDataUrl('DATA:Audio/Ogg;codecs=opus;BASE64,aGk=').mimeType).toBe('audio/ogg');
    expect(parseDataUrl('data:;base64,aGk=')).toEqual({ mimeType: undefined, bytes: Buffer.from('hi') });
  });

  it.each([
    ['data:audio/wav,hello', 'must be base64-encoded'],
    ['data:audio/wav;base64', 'Expected a data: URL'],
    ['audio/wav;base64,aGk=', 'Expected a data: URL'],
  ])('rejects %j', (url, problem) => {
    const error = errorOf(() => parseDataUrl(url));
    expect(error.code).toBe('invalid_data_url');
    expect(error.message).toContain(problem);
  });

  it('reports bad base64 inside a data: URL as invalid_base64', () => {
    expect(errorOf(() => parseDataUrl('data:image/png;base64,a$==')).code).toBe('invalid_base64');
  });
});

describe('parseInlineMediaUrl', () => {
  it.each(['https://example.com/a.png', 'http://example.com/a.wav', ' HTTPS://x/y'])('refuses the web URL %j', (url) => {
    const error = errorOf(() => parseInlineMediaUrl(url, 'messages[0].content[1].image_url.url'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('media_url_not_inline');
    expect(error.message).toBe('Only inline data: URLs are accepted for media');
    expect(error.param).toBe('messages[0].content[1].image_url.url');
  });

  it('parses inline data: URLs', () => {
    expect(parseInlineMediaUrl('data:image/png;base64,aGk=').bytes.toString()).toBe('hi');
  });
});

describe('decodeBareBase64', () => {
  it('decodes bare base64', () => {
    expect(decodeBareBase64('aGk=').toString()).toBe('hi');
  });

  it('refuses a data: URL where bare base64 is required', () => {
    const error = errorOf(() => decodeBareBase64('data:audio/wav;base64,aGk=', 'input_audio.data'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_base64');
    expect(error.message).toContain('not a data: URL');
    expect(error.param).toBe('input_audio.data');
  });
});
