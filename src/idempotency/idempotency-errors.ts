// The answers of a key that cannot run now (docs/errors.md, docs/idempotency.md).
import { ApiError } from '../common/api-error';
import type { IdempotentResponseRecordedV1 } from './idempotency.events';

export function inUse(retryAfterSeconds: number, requestId: string | null): ApiError {
  const which = requestId === null ? 'another request' : `request ${requestId}`;
  return new ApiError(409, 'idempotency_key_in_use', `This Idempotency-Key is in use by ${which}, still running; retry after it completes.`, 'invalid_request_error', 'Idempotency-Key', {
    'retry-after': String(retryAfterSeconds),
  });
}

export function reused(): ApiError {
  return new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used with another request (method, path or body); use a new key for a new request.', 'invalid_request_error', 'Idempotency-Key');
}

export function notKept(outcome: IdempotentResponseRecordedV1): ApiError {
  const cost = outcome.costUsdMicros === null ? 'no charge' : `a charge of ${outcome.costUsdMicros} USD micros (request ${outcome.chargedRequestId})`;
  return new ApiError(409, 'idempotent_response_not_kept', `This Idempotency-Key's answer (request ${outcome.requestId}, status ${outcome.status}, ${outcome.size} bytes) was not kept for replay; it carried ${cost}.`, 'invalid_request_error', 'Idempotency-Key');
}

/** A form must be fingerprinted before it runs: its length must be known (SDKs send it). */
export function lengthRequired(): ApiError {
  return new ApiError(411, 'length_required', 'A multipart request with an Idempotency-Key must declare its Content-Length.', 'invalid_request_error', 'Content-Length');
}
