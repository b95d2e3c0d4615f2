import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { KeyGuard } from '../../access/key.guard';
import { Ctx, RequestContext } from '../../common/request-context';
import type { RawCostQuery } from '../domain/cost-query';
import type { CostPage } from '../domain/cost-page';
import { GetOrganizationCostsQuery } from './get-organization-costs.query';

@Controller('v1/organization/costs')
@UseGuards(KeyGuard)
export class GetOrganizationCostsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  costs(@Query() raw: RawCostQuery, @Ctx() ctx: RequestContext): Promise<CostPage> {
    return this.queryBus.execute(new GetOrganizationCostsQuery(ctx.caller.organizationId, raw));
  }
}
