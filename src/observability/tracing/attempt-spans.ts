// One span per upstream attempt (docs/observability.md, docs/routing.md): a child of the upstream call's
// span, from the attempt's start to its response head or failure, with the deployment and the outcome as
// attributes. Recorded from the router's report of the attempt, inside the call's async context.
import { trace, type Tracer } from '@opentelemetry/api';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { RoutingListener } from '../../routing/router';
import type { AttemptOutcome } from '../../routing/routing.events';

export const ATTEMPT_SPAN = 'upstream attempt';

export function attemptSpans(tracer: Tracer, now: () => number = Date.now): RoutingListener {
  return {
    attempted(model: CatalogModel, deploymentId: string, outcome: AttemptOutcome, seconds: number): void {
      const end = now();
      const span = tracer.startSpan(ATTEMPT_SPAN, {
        startTime: end - seconds * 1000,
        attributes: { 'gateway.model': model.id, 'gateway.deployment.id': deploymentId, 'gateway.attempt.outcome': outcome },
      });
      if (outcome !== 'served') span.setStatus({ code: 2, message: outcome });
      span.end(end);
    },
  };
}

/** The active span (the upstream call) learns which deployment answered. */
export const servedBy: RoutingListener = {
  attempted(_model, deploymentId, outcome) {
    if (outcome === 'served') trace.getActiveSpan()?.setAttribute('gateway.deployment.id', deploymentId);
  },
};
