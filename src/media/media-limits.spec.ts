import { ApiError } from '../common/api-error';
import { assertWithinMediaLimit, MAX_MEDIA_BYTES } from './media-limits';

describe('assertWithinMediaLimit', () => {
  it('is 8 MiB', () => {
    expect(MAX_MEDIA_BYTES).toBe(8_388_608);
  });

  it('allows exactly 8 MiB', () => {
    expect(() => assertWithinMediaLimit(MAX_MEDIA_BYTES)).not.toThrow();
    expect(() => assertWithinMediaLimit(Buffer.alloc(MAX_MEDIA_BYTES))).not.toThrow();
  });

  it('answers 413 media_too_large one byte over', () => {
    let caught: unknown;
    try {
      assertWithinMediaLimit(MAX_MEDIA_BYTES + 1, 'messages[0].content[0].input_audio.data');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).status).toBe(413);
    expect((caught as ApiError).toBody().error).toEqual({
      message: 'Media is 8388609 bytes after transcoding; the limit is 8388608 bytes',
      type: 'invalid_request_error',
      param: 'messages[0].content[0].input_audio.data',
      code: 'media_too_large',
    });
  });

  it('takes a custom limit', () => {
    expect(() => assertWithinMediaLimit(11, null, 10)).toThrow('the limit is 10 bytes');
  });
});
