// Pure fold of the model-status read model: the last observed status per model, and when it was
// last confirmed (a status older than a few probe intervals is unknown and not served).
import type { ModelStatusChangedV1 } from '../../billing/billing.events';

export type ModelStatus = 'warm' | 'cold';

export interface ModelStatusEntry {
  status: ModelStatus;
  /** Unix ms of the last observation that confirmed this status (change event or probe). */
  confirmedAt: number;
}

export type ModelStatusState = ReadonlyMap<string, ModelStatusEntry>;

export function evolveModelStatus(state: ModelStatusState, event: ModelStatusChangedV1): ModelStatusState {
  const next = new Map(state);
  const at = Date.parse(event.observedAt);
  const current = next.get(event.model);
  if (!current || at >= current.confirmedAt) next.set(event.model, { status: event.status, confirmedAt: at });
  return next;
}

/** Confirms the current status without an event (probes that saw no change). */
export function confirmModelStatus(state: ModelStatusState, model: string, status: ModelStatus, at: number): ModelStatusState {
  const current = state.get(model);
  if (!current || current.status !== status) return state;
  const next = new Map(state);
  next.set(model, { status, confirmedAt: Math.max(at, current.confirmedAt) });
  return next;
}

export function freshStatus(state: ModelStatusState, model: string, now: number, staleAfterMs: number): ModelStatus | undefined {
  const entry = state.get(model);
  return entry && now - entry.confirmedAt <= staleAfterMs ? entry.status : undefined;
}
