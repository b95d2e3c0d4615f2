// Pure fold of ModelStatusChanged: the newest observation of a model wins, whichever replica made it.
import type { ModelStatusChangedV1 } from './model-status.events';
import { EventContractError } from '../../projections/parking/event-contract-error';

export interface ModelStatusEntry {
  status: 'warm' | 'cold';
  observedAt: string;
}

/** The entry after the event, or null when the event is older than what is known (kept as is). */
/** Throws EventContractError for an event that cannot be folded (it is then parked). */
export function nextModelStatus(current: ModelStatusEntry | undefined, event: ModelStatusChangedV1): ModelStatusEntry | null {
  checkModelStatusChanged(event);
  const observed = Date.parse(event.observedAt);
  if (typeof event.observedAt !== 'string' || Number.isNaN(observed)) throw new EventContractError(`ModelStatusChanged for ${event.model}: observedAt is not a timestamp`);
  if (current && Date.parse(current.observedAt) > observed) return null;
  return { status: event.status, observedAt: event.observedAt };
}

export function checkModelStatusChanged(event: ModelStatusChangedV1): void {
  if (typeof event !== 'object' || event === null) throw new EventContractError('ModelStatusChanged data is not an object');
  if (typeof event.model !== 'string' || event.model === '') throw new EventContractError('ModelStatusChanged has no model');
  if (event.status !== 'warm' && event.status !== 'cold') throw new EventContractError(`ModelStatusChanged for ${event.model}: status ${JSON.stringify(event.status)}`);
}
