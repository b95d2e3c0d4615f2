import type { SetOrganizationBudgetRequestDto } from './set-organization-budget.request.dto';

export class SetOrganizationBudgetCommand {
  constructor(
    readonly organizationId: string,
    readonly body: SetOrganizationBudgetRequestDto,
    readonly by: string,
  ) {}
}
