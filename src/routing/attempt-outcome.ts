// How a failed attempt is classified and whether another deployment may take the request (docs/routing.md
// "Failover"). Only failures before the response head are seen here: the router returns once a 2xx head
// arrived, so nothing that reached the client is ever retried.
import { ApiError } from '../common/api-error';
import type { AttemptOutcome } from './routing.events';

/** Thrown by one attempt: the error the client would see and the upstream's status, if one came. */
export class AttemptFailed extends Error {
  constructor(readonly error: ApiError, readonly status: number | null) {
    super(error.message);
  }
}

/** `rejected`: the upstream refused the request itself (4xx other than 429): another deployment would too. */
export type FailedOutcome = Exclude<AttemptOutcome, 'served'>;

const OUTCOME_BY_CODE: Record<string, FailedOutcome> = {
  upstream_unreachable: 'connect_error',
  upstream_timeout: 'timeout',
  upstream_error: 'upstream_5xx',
  upstream_unavailable: 'upstream_5xx',
  upstream_capacity: 'upstream_429',
  model_cold: 'cold',
  client_closed_request: 'aborted',
};

export function outcomeOf(failure: AttemptFailed): FailedOutcome {
  return OUTCOME_BY_CODE[failure.error.code] ?? 'rejected';
}

/** Worth another deployment: the failure was this deployment's, not the request's nor the client's. */
export function isRetryable(outcome: FailedOutcome): boolean {
  return outcome !== 'aborted' && outcome !== 'rejected';
}

/** Counts against the deployment's health (passive ejection); a 429 or a cold start does not. */
export function isDeploymentFault(outcome: FailedOutcome): boolean {
  return outcome === 'connect_error' || outcome === 'timeout' || outcome === 'upstream_5xx';
}
