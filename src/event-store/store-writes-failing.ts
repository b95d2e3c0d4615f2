// The store known to be failing its writes (WriteTrackingEventStore), and the 503 a request gets when
// a write it needs before its work (a rate-limit admission, a budget hold) failed.
import { ApiError } from '../common/api-error';

/** Thrown instead of attempting an append while the store is known to be failing. */
export class StoreWritesFailingError extends Error {
  constructor(reason: unknown) {
    super(`event store writes are failing: ${reason instanceof Error ? reason.message : String(reason)}`);
  }
}

/**
 * While writes are known to fail, billing could not be recorded either: the request is refused as
 * `billing_unavailable`. Any other failure is the part's own (`rate_limit_unavailable`, `budget_unavailable`).
 */
export function writeFailureRefusal(error: unknown, own: { code: string; message: string }): ApiError {
  if (error instanceof StoreWritesFailingError) return ApiError.unavailable('billing_unavailable', 'Billing cannot be recorded right now; the request was not served. Retry shortly.', 1);
  return ApiError.unavailable(own.code, own.message, 1);
}
