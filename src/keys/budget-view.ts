// An organization's budget as the management API shows it: set through the API (latest event), else
// the configured one, else none.
import type { Organization } from '../access/access.types';
import type { LimitReset } from '../budgets/spend-limits';
import type { SpendReader } from '../budgets/spend-reader';
import type { OrganizationBudgetState } from './domain/organization-budget';
import { normalizeUsd, usageOf, type UsageView } from './key-view';

export interface BudgetView {
  object: 'organization_budget';
  organization_id: string;
  limit_usd: string | null;
  limit_reset: LimitReset;
  /** `api`: set by PUT; `configuration`: the configured default; null: no budget. */
  source: 'api' | 'configuration' | null;
  updated_at: string | null;
  usage: UsageView;
}

export function budgetView(organization: Organization, set: OrganizationBudgetState | undefined, reader: SpendReader, nowMs: number): BudgetView {
  const configured = organization.budget ?? null;
  const limitUsd = set ? set.limitUsd : configured ? normalizeUsd(configured.limit_usd) : null;
  const reset = set ? set.limitReset : (configured?.limit_reset ?? null);
  return {
    object: 'organization_budget',
    organization_id: organization.id,
    limit_usd: limitUsd,
    limit_reset: reset,
    source: set ? 'api' : configured ? 'configuration' : null,
    updated_at: set?.updatedAt ?? null,
    usage: usageOf(reader, 'organization', organization.id, limitUsd, reset, nowMs),
  };
}
