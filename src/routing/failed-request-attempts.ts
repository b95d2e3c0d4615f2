// Where a request's UpstreamAttemptRecorded events go (docs/events.md): a served request's with its
// charge, in the same append as UsageMeasured and CostPriced (BillingService takes them from the log);
// a request that failed on every attempt has no charge, so its attempts are appended on their own to
// the request's stream. Failed attempts are never charged.
import type { BillingService } from '../billing/billing.service';
import type { EventStore } from '../event-store/event-store.port';
import { requestStreamId } from '../event-store/event-ids';
import type { Router } from './router';

export function recordAttemptsOfFailedRequests(billing: BillingService, router: Router, store: EventStore): BillingService {
  billing.recordAttemptsFrom(router.attempts);
  router.listen({
    failedRequest: (requestId) => {
      const events = router.attempts.take(requestId, null, null);
      // Best effort: the request already failed for the client; a lost record costs no money.
      if (events.length > 0) void store.append(requestStreamId(requestId), events).catch(() => undefined);
    },
  });
  return billing;
}
