import { assertWithinPixelCap } from './pixel-cap';
import { DEFAULT_MEDIA_ENV } from './admission/media-env';

describe('pixel cap', () => {
  it('allows exactly the cap and refuses one pixel more, for images and video frames', () => {
    expect(() => assertWithinPixelCap('image', 8000, 5000, 40_000_000)).not.toThrow();
    expect(() => assertWithinPixelCap('image', 40_000_001, 1, 40_000_000)).toThrow(expect.objectContaining({ status: 400, code: 'image_too_large' }));
    expect(() => assertWithinPixelCap('video', 100, 100, 10_000)).not.toThrow();
    expect(() => assertWithinPixelCap('video', 10_001, 1, 10_000)).toThrow(expect.objectContaining({ status: 400, code: 'video_too_large' }));
  });

  it('defaults to 40 megapixels and says what was sent and what is allowed', () => {
    expect(DEFAULT_MEDIA_ENV.maxPixels).toBe(40_000_000);
    expect(() => assertWithinPixelCap('image', 16000, 16000)).toThrow(
      'The image is 16000 x 16000 px (256,000,000 pixels); the gateway decodes at most 40,000,000 pixels',
    );
  });
});
