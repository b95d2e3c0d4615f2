// The organization's latest requests from the request log, brought up to the store's head first (as
// cost pages are), so a client sees the request it was just answered.
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GATEWAY_RUNTIME } from '../../core/core.module';
import type { GatewayRuntime } from '../../core/gateway-runtime';
import { buildRequestList, parseRequestListQuery, type RequestList } from '../domain/request-list';
import { ListOrganizationRequestsQuery } from './list-organization-requests.query';

@QueryHandler(ListOrganizationRequestsQuery)
export class ListOrganizationRequestsHandler implements IQueryHandler<ListOrganizationRequestsQuery, RequestList> {
  constructor(@Inject(GATEWAY_RUNTIME) private readonly runtime: GatewayRuntime) {}

  async execute({ organizationId, raw }: ListOrganizationRequestsQuery): Promise<RequestList> {
    const { limit, after } = parseRequestListQuery(raw);
    await this.runtime.costs.catchUpOnDemand();
    return buildRequestList(this.runtime.costs.requestLog.page(organizationId, limit, after));
  }
}
