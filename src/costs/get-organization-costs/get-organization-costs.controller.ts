import { Controller, Get, Headers, Query, Res, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { KeyGuard } from '../../access/key.guard';
import { Ctx, RequestContext } from '../../common/request-context';
import type { RawCostQuery } from '../domain/cost-query';
import type { CostPage } from '../domain/cost-page';
import { CSV_MEDIA_TYPE, prefersCsv } from '../domain/cost-csv';
import { CostCsvPage, GetOrganizationCostsQuery } from './get-organization-costs.query';

/** Response headers of the CSV rendering: whether more pages follow, and the cursor of the next one. */
export const CSV_HAS_MORE_HEADER = 'x-has-more';
export const CSV_NEXT_PAGE_HEADER = 'x-next-page';

@Controller('v1/organization/costs')
@UseGuards(KeyGuard)
export class GetOrganizationCostsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  async costs(
    @Query() raw: RawCostQuery,
    @Ctx() ctx: RequestContext,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CostPage | string> {
    const asCsv = prefersCsv(accept);
    const result: CostPage | CostCsvPage = await this.queryBus.execute(new GetOrganizationCostsQuery(ctx.caller.organizationId, raw, asCsv));
    reply.header('vary', 'accept');
    if (!('csv' in result)) return result;
    reply.header('content-type', `${CSV_MEDIA_TYPE}; charset=utf-8`);
    reply.header(CSV_HAS_MORE_HEADER, String(result.nextPage !== null));
    if (result.nextPage !== null) reply.header(CSV_NEXT_PAGE_HEADER, result.nextPage);
    return result.csv;
  }
}
