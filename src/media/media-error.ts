// Errors for media the client sent. They are ApiErrors, so the exception filter renders them as
// 400 envelopes without a mapping table; the class lets callers tell media faults apart.
import { ApiError } from '../common/api-error';

export type MediaErrorCode =
  | 'invalid_base64'
  | 'invalid_data_url'
  | 'media_url_not_inline'
  | 'unrecognized_container'
  | 'undecodable_media'
  | 'not_audio'
  | 'not_video'
  | 'unsupported_media'
  | 'image_too_large'
  | 'video_too_large';

export class MediaError extends ApiError {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
    param: string | null = null,
  ) {
    super(400, code, message, 'invalid_request_error', param);
  }

  /** The same error pointing at the request field that carried the media. */
  at(param: string): MediaError {
    return new MediaError(this.code, this.message, param);
  }
}

/** Awaits `work`; a MediaError it throws is re-thrown pointing at `param`. */
export async function withMediaParam<T>(param: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw error instanceof MediaError ? error.at(param) : error;
  }
}
