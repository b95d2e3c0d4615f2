// The organization's latest requests from the request log, brought up to the store's head first (as
// cost pages are), so a client sees the request it was just answered.
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CostReadModels } from '../read-model/cost-read-models';
import { buildRequestList, parseRequestListQuery, type RequestList } from '../domain/request-list';
import { ListOrganizationRequestsQuery } from './list-organization-requests.query';

@QueryHandler(ListOrganizationRequestsQuery)
export class ListOrganizationRequestsHandler implements IQueryHandler<ListOrganizationRequestsQuery, RequestList> {
  constructor(private readonly costs: CostReadModels) {}

  async execute({ organizationId, raw }: ListOrganizationRequestsQuery): Promise<RequestList> {
    const { limit, after } = parseRequestListQuery(raw);
    await this.costs.catchUpOnDemand();
    return buildRequestList(this.costs.requestLog.page(organizationId, limit, after));
  }
}
