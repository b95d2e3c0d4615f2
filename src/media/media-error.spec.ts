import { ApiError } from '../common/api-error';
import { MediaError, withMediaParam } from './media-error';

describe('MediaError', () => {
  it('renders as a 400 invalid_request_error envelope', () => {
    const error = new MediaError('not_audio', 'The media (png_pipe) has no audio stream', 'file');
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.toBody()).toEqual({
      error: { message: 'The media (png_pipe) has no audio stream', type: 'invalid_request_error', param: 'file', code: 'not_audio' },
    });
  });
});

describe('withMediaParam', () => {
  it('points media errors at the field', async () => {
    const failing = Promise.reject(new MediaError('undecodable_media', 'broken'));
    await expect(withMediaParam('input_audio.data', failing)).rejects.toMatchObject({ code: 'undecodable_media', param: 'input_audio.data' });
  });

  it('passes results and other errors through unchanged', async () => {
    await expect(withMediaParam('file', Promise.resolve(3))).resolves.toBe(3);
    const other = new Error('disk full');
    await expect(withMediaParam('file', Promise.reject(other))).rejects.toBe(other);
  });
});
