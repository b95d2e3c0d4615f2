// The spec caps media at 8 MiB after transcoding (413 above it); exactly 8 MiB is allowed.
import { ApiError } from '../common/api-error';

export const MAX_MEDIA_BYTES = 8 * 1024 * 1024;

export function assertWithinMediaLimit(bytes: Buffer | number, param: string | null = null, limit = MAX_MEDIA_BYTES): void {
  const size = typeof bytes === 'number' ? bytes : bytes.length;
  if (size > limit) {
    throw ApiError.tooLarge('media_too_large', `Media is ${size} bytes after transcoding; the limit is ${limit} bytes`, param);
  }
}
