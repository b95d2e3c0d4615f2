// The absolute cap on width x height of anything decoded, whatever the model's profile allows: a
// 16000 x 16000 PNG compresses to under 1 MB yet decodes to 1 GB. Checked on header values before
// any process runs (images) or any frame is decoded (video). Exactly the cap is allowed.
import { DEFAULT_MEDIA_ENV } from './admission/media-env';
import { MediaError } from './media-error';

export function assertWithinPixelCap(kind: 'image' | 'video', width: number, height: number, maxPixels = DEFAULT_MEDIA_ENV.maxPixels): void {
  const pixels = width * height;
  if (pixels <= maxPixels) return;
  const what = kind === 'image' ? 'The image' : "The video's frame size";
  throw new MediaError(
    kind === 'image' ? 'image_too_large' : 'video_too_large',
    `${what} is ${width} x ${height} px (${pixels.toLocaleString('en-US')} pixels); the gateway decodes at most ${maxPixels.toLocaleString('en-US')} pixels`,
  );
}
