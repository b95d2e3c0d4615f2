// A stream as the deciders take it: the recorded events as domain events.
import type { RecordedEvent } from '../../event-store/event-store.port';
import { foldApiKey, type ApiKeyState } from './api-key';
import type { ApiKeyEvent } from './key-events';
import { evolveBudget, type OrganizationBudgetEvent, type OrganizationBudgetState } from './organization-budget';
import { ORGANIZATION_BUDGET_SET, ORGANIZATION_USAGE_FORMAT_SET } from './key-events';
import { evolveUsageFormat, type OrganizationUsageFormatEvent, type OrganizationUsageFormatState } from './organization-usage-format';

export const keyStateOf = (history: readonly RecordedEvent[]): ApiKeyState | null =>
  foldApiKey(history.map((e) => ({ type: e.type, data: e.data }) as ApiKeyEvent));

export const budgetStateOf = (history: readonly RecordedEvent[]): OrganizationBudgetState | null =>
  history.reduce<OrganizationBudgetState | null>(
    (state, e) => (e.type === ORGANIZATION_BUDGET_SET ? evolveBudget(state, { type: e.type, data: e.data } as OrganizationBudgetEvent) : state),
    null,
  );

/** The organization stream also holds its budget: only usage-format events count here. */
export const usageFormatStateOf = (history: readonly RecordedEvent[]): OrganizationUsageFormatState | null =>
  history.reduce<OrganizationUsageFormatState | null>(
    (state, e) => (e.type === ORGANIZATION_USAGE_FORMAT_SET ? evolveUsageFormat(state, { type: e.type, data: e.data } as OrganizationUsageFormatEvent) : state),
    null,
  );
