// Daily cost buckets from the cost read model. The read model is first brought up to the store's
// head (bounded wait), so a client sees the costs of the requests it was just answered.
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { parseCostQuery } from '../domain/cost-query';
import { buildCostCsv, buildCostPage, CostPage, nextPage, planCostPage } from '../domain/cost-page';
import { CURSOR_SECRET } from '../../common/runtime-tokens';
import { CostReadModels } from '../read-model/cost-read-models';
import { CostCsvPage, GetOrganizationCostsQuery } from './get-organization-costs.query';

@QueryHandler(GetOrganizationCostsQuery)
export class GetOrganizationCostsHandler implements IQueryHandler<GetOrganizationCostsQuery, CostPage | CostCsvPage> {
  constructor(
    private readonly costs: CostReadModels,
    @Inject(CURSOR_SECRET) private readonly cursorSecret: string,
  ) {}

  async execute({ organizationId, raw, asCsv }: GetOrganizationCostsQuery): Promise<CostPage | CostCsvPage> {
    const query = parseCostQuery(raw);
    const { costs, cursorSecret } = this;
    const plan = planCostPage(query, { organizationId, nowSeconds: Math.floor(Date.now() / 1000), secret: cursorSecret });
    await (query.groupBy === 'model' || query.groupBy === 'api_key_id' ? costs.catchUpOnDemand() : costs.catchUp());
    const rows = costs.readModel.rows(organizationId, plan.fromDay, plan.toDay, query.groupBy);
    if (asCsv) return { csv: buildCostCsv(plan, rows), nextPage: nextPage(plan, cursorSecret) };
    return buildCostPage(plan, rows, cursorSecret);
  }
}
