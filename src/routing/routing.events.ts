// Routing's events (docs/events.md): one per upstream attempt of a request, in the request's stream, and
// a deployment's own status beside the model's (ModelStatusChanged keeps its meaning for /v1/models).

export const UPSTREAM_ATTEMPT_RECORDED = 'UpstreamAttemptRecorded';
export const DEPLOYMENT_STATUS_CHANGED = 'DeploymentStatusChanged';

export type RoutingEventType = typeof UPSTREAM_ATTEMPT_RECORDED | typeof DEPLOYMENT_STATUS_CHANGED;

/**
 * How one attempt ended; every outcome but `served` happened before a byte reached the client.
 * `rejected`: the upstream refused the request itself (a 4xx other than 429); it is never retried.
 */
export type AttemptOutcome = 'served' | 'connect_error' | 'timeout' | 'upstream_5xx' | 'upstream_429' | 'cold' | 'aborted' | 'rejected';

/** Schema version 1. Event id: eventIdFor(requestId, `upstream-attempt:${attempt}`). */
export interface UpstreamAttemptRecordedV1 {
  requestId: string;
  organizationId: string;
  modelId: string;
  deploymentId: string;
  /** 1-based, in the order the attempts were made. */
  attempt: number;
  outcome: AttemptOutcome;
  /** The upstream's HTTP status, or null when none arrived (connect error, timeout, abort). */
  status: number | null;
  timeToFirstByteMs: number | null;
  /** Exact integer micros as decimal text; null when unknown (the deployment has no `cost`, or nothing was served). */
  costOfGoodsUsdMicros: string | null;
  occurredAt: string;
}

/** A deployment's health changed (docs/routing.md "Health"). Stream `deployment-status-<model>`. */
export interface DeploymentStatusChangedV1 {
  modelId: string;
  deploymentId: string;
  status: 'warm' | 'cold' | 'ejected';
  previous: 'warm' | 'cold' | 'ejected' | null;
  reason: string;
  observedAt: string;
}
