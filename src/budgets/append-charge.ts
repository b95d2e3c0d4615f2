// A charge's append carries the BudgetThresholdCrossed events it crossed, with ids derived from the
// scope, window and threshold, so that each threshold is recorded once. Two charges that cross the same
// threshold at once (two replicas, or two requests of one) both carry it; on a store whose event ids are
// unique store-wide (SQLite) the second append is refused with EventIdConflictError. The threshold is
// then already recorded, so it is dropped and the charge appended again: a charge is never refused, or
// left in the billing spool for ever, because another charge recorded the same crossing first.
import { EventIdConflictError, type NewEvent } from '../event-store/event-store.port';
import { BUDGET_THRESHOLD_CROSSED } from './budget.events';

/**
 * Appends `events` with `append`, dropping each threshold crossing another stream already holds. The
 * append's own promise is returned when it succeeds: a charge pays nothing for this on its way.
 */
export function appendCharge<T>(append: (events: NewEvent[]) => Promise<T>, events: NewEvent[]): Promise<T> {
  return append(events).catch((error: unknown) => {
    const recordedElsewhere = error instanceof EventIdConflictError ? events.find((event) => event.id === error.eventId) : undefined;
    if (recordedElsewhere?.type !== BUDGET_THRESHOLD_CROSSED) throw error;
    return appendCharge(append, events.filter((event) => event !== recordedElsewhere));
  });
}
