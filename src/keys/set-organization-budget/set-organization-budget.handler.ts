// PUT: records OrganizationBudgetSet on `organization-<id>`; it overrides the configured budget on every replica.
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '../../common/api-error';
import { SpendReader } from '../../budgets/spend-reader';
import { budgetStateOf } from '../domain/key-history';
import { organizationStream } from '../domain/key-events';
import { decideSetBudget, evolveBudget, type OrganizationBudgetState } from '../domain/organization-budget';
import { decideAndAppend } from '../decide-and-append';
import { KeysContext } from '../keys.context';
import { normalizeUsd } from '../key-view';
import { budgetView, type BudgetView } from '../budget-view';
import { SetOrganizationBudgetCommand } from './set-organization-budget.command';

export function organizationNotFound(id: string): ApiError {
  return ApiError.notFound('organization_not_found', `No organization '${id}' in the gateway configuration.`, 'id');
}

@CommandHandler(SetOrganizationBudgetCommand)
export class SetOrganizationBudgetHandler implements ICommandHandler<SetOrganizationBudgetCommand, BudgetView> {
  constructor(
    private readonly keys: KeysContext,
    private readonly spend: SpendReader,
  ) {}

  async execute({ organizationId, body, by }: SetOrganizationBudgetCommand): Promise<BudgetView> {
    const organization = this.keys.config.organizations.find((o) => o.id === organizationId);
    if (!organization) throw organizationNotFound(organizationId);
    const limitUsd = body.limit_usd === null ? null : normalizeUsd(body.limit_usd);
    const state = await decideAndAppend<OrganizationBudgetState | null>(this.keys.store, this.keys.projection, organizationStream(organizationId), (history) => {
      const current = budgetStateOf(history);
      const events = decideSetBudget(current, { organizationId, limitUsd, limitReset: body.limit_reset ?? null, at: new Date().toISOString(), by });
      return { events, state: events.reduce<OrganizationBudgetState | null>(evolveBudget, current) };
    });
    return budgetView(organization, state ?? undefined, this.spend, Date.now());
  }
}
