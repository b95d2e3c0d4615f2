import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { KeyGuard } from '../../access/key.guard';
import { Ctx, RequestContext } from '../../common/request-context';
import type { RawCostQuery } from '../domain/cost-query';
import type { RequestList } from '../domain/request-list';
import { ListOrganizationRequestsQuery } from './list-organization-requests.query';

@Controller('v1/organization/requests')
@UseGuards(KeyGuard)
export class ListOrganizationRequestsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  requests(@Query() raw: RawCostQuery, @Ctx() ctx: RequestContext): Promise<RequestList> {
    return this.queryBus.execute(new ListOrganizationRequestsQuery(ctx.caller.organizationId, raw));
  }
}
