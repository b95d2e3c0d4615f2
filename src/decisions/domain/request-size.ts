// Decisions cap their request body well below the gateway-wide 100 MiB (see docs/decisions.md):
// the evidence is a few images and one clip, so anything larger is refused with 413 up front.
import { ApiError } from '../../common/api-error';

export const MAX_DECISION_REQUEST_BYTES = 32 * 1024 * 1024;

/** The declared Content-Length, or for a chunked upload the size of the parsed body re-encoded. */
export function assertDecisionRequestSize(contentLength: string | undefined, body: unknown): void {
  const declared = Number(contentLength);
  const size = Number.isFinite(declared) && contentLength !== undefined ? declared : Buffer.byteLength(JSON.stringify(body) ?? '');
  if (size > MAX_DECISION_REQUEST_BYTES) {
    throw ApiError.tooLarge('request_too_large', `The decisions request is ${size} bytes; the limit is ${MAX_DECISION_REQUEST_BYTES} bytes.`);
  }
}
