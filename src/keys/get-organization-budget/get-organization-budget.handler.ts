import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SpendReader } from '../../budgets/spend-reader';
import { KeysContext } from '../keys.context';
import { budgetView, type BudgetView } from '../budget-view';
import { organizationNotFound } from '../set-organization-budget/set-organization-budget.handler';
import { GetOrganizationBudgetQuery } from './get-organization-budget.query';

@QueryHandler(GetOrganizationBudgetQuery)
export class GetOrganizationBudgetHandler implements IQueryHandler<GetOrganizationBudgetQuery, BudgetView> {
  constructor(
    private readonly keys: KeysContext,
    private readonly spend: SpendReader,
  ) {}

  async execute({ organizationId }: GetOrganizationBudgetQuery): Promise<BudgetView> {
    const organization = this.keys.config.organizations.find((o) => o.id === organizationId);
    if (!organization) throw organizationNotFound(organizationId);
    return budgetView(organization, this.keys.registry.budget(organizationId), this.spend, Date.now());
  }
}
