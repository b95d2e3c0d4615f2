export class GetOrganizationBudgetQuery {
  constructor(readonly organizationId: string) {}
}
