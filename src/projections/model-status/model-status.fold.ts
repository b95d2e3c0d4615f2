// Pure fold of ModelStatusChanged: the newest observation of a model wins, whichever replica made it.
import type { ModelStatusChangedV1 } from '../../billing/billing.events';

export interface ModelStatusEntry {
  status: 'warm' | 'cold';
  observedAt: string;
}

/** The entry after the event, or null when the event is older than what is known (kept as is). */
export function nextModelStatus(current: ModelStatusEntry | undefined, event: ModelStatusChangedV1): ModelStatusEntry | null {
  const observed = Date.parse(event.observedAt);
  if (Number.isNaN(observed)) throw new Error(`ModelStatusChanged for ${event.model}: observedAt is not a timestamp`);
  if (current && Date.parse(current.observedAt) > observed) return null;
  return { status: event.status, observedAt: event.observedAt };
}
