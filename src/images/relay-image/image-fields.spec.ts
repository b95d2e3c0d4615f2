import type { ApiError } from '../../common/api-error';
import { FormAllowList } from '../../common/form-allow-list';
import { forwardedFormFields, forwardedJsonFields, IMAGE_FORMS } from './image-fields';

function refusal(run: () => unknown): { code: string; param: string | null } | null {
  try {
    run();
    return null;
  } catch (error) {
    return { code: (error as ApiError).code, param: (error as ApiError).param };
  }
}

describe('image request fields', () => {
  it('forwards a generation\'s priced fields only, dropping user and stream', () => {
    const body = { model: 'canvas', prompt: 'A kite', n: 2, response_format: 'b64_json', size: '1024x1024', user: 'u-1', stream: false };
    expect(forwardedJsonFields(body)).toEqual({ model: 'canvas', prompt: 'A kite', n: 2, response_format: 'b64_json', size: '1024x1024' });
    expect(forwardedJsonFields({ model: 'canvas', prompt: 'A kite', size: null })).toEqual({ model: 'canvas', prompt: 'A kite' });
  });

  it('refuses an undocumented field by name, a size past one megapixel and a user that is no string', () => {
    expect(refusal(() => forwardedJsonFields({ model: 'canvas', quality: 'hd' }))).toEqual({ code: 'unknown_parameter', param: 'quality' });
    expect(refusal(() => forwardedJsonFields({ model: 'canvas', size: '4096x4096' }))).toEqual({ code: 'unsupported_size', param: 'size' });
    expect(refusal(() => forwardedJsonFields({ model: 'canvas', size: '1024x1025' }))).toEqual({ code: 'unsupported_size', param: 'size' });
    expect(refusal(() => forwardedJsonFields({ model: 'canvas', user: {} }))).toEqual({ code: 'invalid_value', param: 'user' });
  });

  it('forwards a form\'s fields in a fixed order, without user', () => {
    expect(forwardedFormFields({ user: 'u', n: '1', model: 'canvas', prompt: 'p' })).toEqual([['model', 'canvas'], ['prompt', 'p'], ['n', '1']]);
  });

  it('lets edits repeat images and send one mask; variations take no prompt and no mask', () => {
    const edits = new FormAllowList(IMAGE_FORMS.edits);
    for (const name of ['image', 'image', 'image[]', 'mask']) edits.admit({ kind: 'file', name });
    expect(refusal(() => edits.admit({ kind: 'file', name: 'mask' }))).toEqual({ code: 'duplicate_parameter', param: 'mask' });
    const variations = new FormAllowList(IMAGE_FORMS.variations);
    expect(refusal(() => variations.admit({ kind: 'field', name: 'prompt' }))).toEqual({ code: 'unknown_parameter', param: 'prompt' });
    expect(refusal(() => variations.admit({ kind: 'file', name: 'mask' }))).toEqual({ code: 'unknown_parameter', param: 'mask' });
  });
});
