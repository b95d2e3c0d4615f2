import { ApiError } from '../../common/api-error';
import { assertImageRequest, imageOperation, requestedImageCount } from './image-operations';

function refusal(run: () => unknown): Pick<ApiError, 'status' | 'code' | 'param'> {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('imageOperation', () => {
  it('knows generations, edits and variations and 404s anything else', () => {
    expect(['generations', 'edits', 'variations'].map(imageOperation)).toEqual(['generations', 'edits', 'variations']);
    for (const path of ['upscale', 'toString', '__proto__', '']) {
      expect(refusal(() => imageOperation(path))).toMatchObject({ status: 404, code: 'not_found' });
    }
  });
});

describe('assertImageRequest', () => {
  it('returns the model of a complete request', () => {
    expect(assertImageRequest('edits', { model: 'canvas', prompt: 'add a hat' }, 2)).toBe('canvas');
    expect(assertImageRequest('variations', { model: 'canvas', response_format: 'b64_json' }, 1)).toBe('canvas');
    expect(assertImageRequest('generations', { model: 'canvas', prompt: 'a cat', stream: false }, 0)).toBe('canvas');
  });

  it('400s a missing or blank model', () => {
    expect(refusal(() => assertImageRequest('edits', { prompt: 'x' }, 1))).toEqual({ status: 400, code: 'missing_model', param: 'model' });
    expect(refusal(() => assertImageRequest('generations', { model: '  ', prompt: 'x' }, 0))).toMatchObject({ code: 'missing_model' });
  });

  it('needs a prompt for generations and edits, not for variations', () => {
    expect(refusal(() => assertImageRequest('edits', { model: 'canvas' }, 1))).toEqual({ status: 400, code: 'missing_required_parameter', param: 'prompt' });
    expect(refusal(() => assertImageRequest('generations', { model: 'canvas', prompt: '' }, 0))).toMatchObject({ param: 'prompt' });
    expect(assertImageRequest('variations', { model: 'canvas' }, 1)).toBe('canvas');
  });

  it('needs an image for edits and variations', () => {
    expect(refusal(() => assertImageRequest('edits', { model: 'canvas', prompt: 'x' }, 0))).toEqual({ status: 400, code: 'missing_required_parameter', param: 'image' });
    expect(refusal(() => assertImageRequest('variations', { model: 'canvas' }, 0))).toMatchObject({ param: 'image' });
  });

  it('takes response_format url or b64_json only', () => {
    expect(assertImageRequest('edits', { model: 'canvas', prompt: 'x', response_format: 'url' }, 1)).toBe('canvas');
    expect(refusal(() => assertImageRequest('edits', { model: 'canvas', prompt: 'x', response_format: 'png' }, 1))).toEqual({
      status: 400,
      code: 'unsupported_response_format',
      param: 'response_format',
    });
  });

  it('does not stream', () => {
    expect(refusal(() => assertImageRequest('edits', { model: 'canvas', prompt: 'x', stream: 'true' }, 1))).toMatchObject({ code: 'streaming_unsupported' });
    expect(refusal(() => assertImageRequest('generations', { model: 'canvas', prompt: 'x', stream: true }, 0))).toMatchObject({ code: 'streaming_unsupported' });
    for (const stream of [-58800, 'yes', 0, {}]) {
      expect(refusal(() => assertImageRequest('generations', { model: 'canvas', prompt: 'x', stream }, 0))).toMatchObject({ status: 400, code: 'streaming_unsupported', param: 'stream' });
    }
    expect(assertImageRequest('edits', { model: 'canvas', prompt: 'x', stream: 'false' }, 1)).toBe('canvas');
    expect(assertImageRequest('generations', { model: 'canvas', prompt: 'x', stream: null }, 0)).toBe('canvas');
  });
});

describe('requestedImageCount', () => {
  it('is 1 when n is absent or null', () => {
    expect(requestedImageCount({})).toBe(1);
    expect(requestedImageCount({ n: null })).toBe(1);
  });

  it('takes a whole number 1..10 as a JSON number or a form text, at both edges', () => {
    expect(requestedImageCount({ n: 1 })).toBe(1);
    expect(requestedImageCount({ n: 10 })).toBe(10);
    expect(requestedImageCount({ n: '10' })).toBe(10);
    expect(requestedImageCount({ n: '3' })).toBe(3);
  });

  it('refuses anything else with 400 invalid_image_count, one past each edge included', () => {
    for (const n of [0, 11, '0', '11', 2.5, '2.5', -1, '', ' 2', '100', 'two', true, [2], {}]) {
      expect(refusal(() => requestedImageCount({ n }))).toMatchObject({ status: 400, code: 'invalid_image_count', param: 'n' });
    }
  });
});
