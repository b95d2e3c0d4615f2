import type { RawCostQuery } from '../domain/cost-query';

export class ListOrganizationRequestsQuery {
  constructor(
    readonly organizationId: string,
    readonly raw: RawCostQuery,
  ) {}
}
