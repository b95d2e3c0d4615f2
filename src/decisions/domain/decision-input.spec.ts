import { ApiError, RequestValidationError } from '../../common/api-error';
import { inputImages } from './decision-input';

const dataUrl = 'data:image/png;base64,iVBORw0KGgo=';

function issuesOf(input: unknown): { loc: (string | number)[]; type: string }[] {
  try {
    inputImages(input, 4);
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    return error.detail.map(({ loc, type }) => ({ loc, type }));
  }
  throw new Error('expected a validation error');
}

describe('inputImages', () => {
  it('accepts text evidence with no images', () => {
    expect(inputImages('The parcel arrived broken.', 0)).toEqual([]);
    expect(inputImages([{ role: 'user', content: 'hello' }], 0)).toEqual([]);
  });

  it('lists the images of user messages with where they sit', () => {
    const input = [
      { role: 'user', content: [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: dataUrl, detail: 'low' }] },
      { role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] },
    ];
    expect(inputImages(input, 4)).toEqual([
      { url: dataUrl, kind: 'data', message: 0, part: 1, param: 'input.0.content.1.image_url' },
      { url: 'https://example.com/a.png', kind: 'https', message: 1, part: 0, param: 'input.1.content.0.image_url' },
    ]);
  });

  it('reports shape problems as 422 issues located in the body', () => {
    expect(issuesOf(42)).toEqual([{ loc: ['body', 'input'], type: 'string_or_array' }]);
    expect(issuesOf([])).toEqual([{ loc: ['body', 'input'], type: 'too_short' }]);
    expect(issuesOf([{ role: 'user', content: 7 }])).toEqual([{ loc: ['body', 'input', 0, 'content'], type: 'string_or_array' }]);
    expect(issuesOf([{ role: 'user', content: [{ type: 'input_text', text: 3 }, { type: 'input_image' }] }])).toEqual([
      { loc: ['body', 'input', 0, 'content', 0, 'text'], type: 'string' },
      { loc: ['body', 'input', 0, 'content', 1, 'image_url'], type: 'string' },
    ]);
  });

  it('answers a value outside an enum (role, part type, detail) with 400, before any 422', () => {
    const enumError = (input: unknown) => captured(() => inputImages(input, 4));
    expect(enumError([{ role: 'assistant', content: 'x' }])).toMatchObject({ status: 400, code: 'invalid_enum_value', param: 'input.0.role' });
    expect(enumError([{ role: 'user', content: [{ type: 'input_text', text: 3 }, { type: 'input_audio' }] }])).toMatchObject({
      code: 'invalid_enum_value',
      param: 'input.0.content.1.type',
    });
    expect(enumError([{ role: 'user', content: [{ type: 'input_image', image_url: dataUrl, detail: 'max' }] }])).toMatchObject({
      code: 'invalid_enum_value',
      param: 'input.0.content.0.detail',
    });
  });

  it('accepts every documented detail', () => {
    for (const detail of ['low', 'high', 'auto', 'original']) {
      expect(inputImages([{ role: 'user', content: [{ type: 'input_image', image_url: dataUrl, detail }] }], 1)).toHaveLength(1);
    }
  });

  it('refuses more images than the model allows with a 400', () => {
    const part = { type: 'input_image', image_url: dataUrl };
    const error = captured(() => inputImages([{ role: 'user', content: [part, part, part] }], 2));
    expect(error).toMatchObject({ status: 400, code: 'too_many_images' });
  });

  it('refuses image URLs that are neither data: nor public https', () => {
    const error = captured(() => inputImages([{ role: 'user', content: [{ type: 'input_image', image_url: 'http://example.com/a.png' }] }], 4));
    expect(error).toMatchObject({ status: 400, code: 'invalid_image_url', param: 'input.0.content.0.image_url' });
  });
});

function captured(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}
