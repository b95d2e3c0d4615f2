// A stream as the deciders take it: the recorded events as domain events.
import type { RecordedEvent } from '../../event-store/event-store.port';
import { foldApiKey, type ApiKeyState } from './api-key';
import type { ApiKeyEvent } from './key-events';
import { evolveBudget, type OrganizationBudgetEvent, type OrganizationBudgetState } from './organization-budget';

export const keyStateOf = (history: readonly RecordedEvent[]): ApiKeyState | null =>
  foldApiKey(history.map((e) => ({ type: e.type, data: e.data }) as ApiKeyEvent));

export const budgetStateOf = (history: readonly RecordedEvent[]): OrganizationBudgetState | null =>
  history.reduce<OrganizationBudgetState | null>((state, e) => evolveBudget(state, { type: e.type, data: e.data } as OrganizationBudgetEvent), null);
