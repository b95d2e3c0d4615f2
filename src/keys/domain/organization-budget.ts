// An organization's budget as set through the management API: the latest OrganizationBudgetSet wins
// over the configured `budget`. Setting the budget it already has records nothing.
import type { LimitReset } from '../../budgets/spend-limits';
import { KEY_EVENT_SCHEMA_VERSION, ORGANIZATION_BUDGET_SET, type OrganizationBudgetSetV1 } from './key-events';

export interface OrganizationBudgetState {
  organizationId: string;
  limitUsd: string | null;
  limitReset: LimitReset;
  updatedAt: string;
}

export type SetBudget = Omit<OrganizationBudgetSetV1, 'schemaVersion'>;

export interface OrganizationBudgetEvent {
  type: typeof ORGANIZATION_BUDGET_SET;
  data: OrganizationBudgetSetV1;
}

export function decideSetBudget(state: OrganizationBudgetState | null, command: SetBudget): OrganizationBudgetEvent[] {
  if (state && state.limitUsd === command.limitUsd && state.limitReset === command.limitReset) return [];
  return [{ type: ORGANIZATION_BUDGET_SET, data: { schemaVersion: KEY_EVENT_SCHEMA_VERSION, ...command } }];
}

export function evolveBudget(_state: OrganizationBudgetState | null, event: OrganizationBudgetEvent): OrganizationBudgetState {
  const d = event.data;
  return { organizationId: d.organizationId, limitUsd: d.limitUsd, limitReset: d.limitReset, updatedAt: d.at };
}
