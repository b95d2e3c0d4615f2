import type { RawCostQuery } from '../domain/cost-query';

export class GetOrganizationCostsQuery {
  constructor(
    readonly organizationId: string,
    readonly raw: RawCostQuery,
  ) {}
}
