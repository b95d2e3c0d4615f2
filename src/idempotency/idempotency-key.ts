// The `Idempotency-Key` header's rules and the stream a key lives in (docs/idempotency.md).
import { createHash } from 'node:crypto';
import { ApiError } from '../common/api-error';
import { IDEMPOTENCY_STREAM_PREFIX } from '../event-store/event-ids';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 255;
/** Printable ASCII: space (0x20) to tilde (0x7e). */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** The key as sent, or a 400 in the API's envelope (1 to 255 printable ASCII characters). */
export function validIdempotencyKey(header: string | string[]): string {
  if (Array.isArray(header)) throw invalidKey('must be sent once');
  if (header.length === 0) throw invalidKey('must not be empty');
  if (header.length > MAX_KEY_LENGTH) throw invalidKey(`must be at most ${MAX_KEY_LENGTH} characters (got ${header.length})`);
  if (!PRINTABLE_ASCII.test(header)) throw invalidKey('must be printable ASCII characters only');
  return header;
}

/** The key's stream: scoped to the organization charged; the key itself appears only as its hash. */
export function idempotencyStreamId(organizationId: string, key: string): string {
  return `${IDEMPOTENCY_STREAM_PREFIX}${organizationId}-${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}

function invalidKey(reason: string): ApiError {
  return new ApiError(400, 'invalid_idempotency_key', `The Idempotency-Key header ${reason}.`, 'invalid_request_error', 'Idempotency-Key');
}
