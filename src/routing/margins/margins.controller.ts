// GET /v1/margins for a management key (docs/routing.md "Margins"). The read model is caught up to the
// store's head first, so a margin includes the requests answered just before.
import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ManagementGuard } from '../../access/management.guard';
import type { RawCostQuery } from '../../costs/domain/cost-query';
import { CURSOR_SECRET } from '../../common/runtime-tokens';
import { buildMarginPage, parseMarginQuery, planMarginPage, type MarginPage } from './margin-page';
import { MarginsReader } from './margins-reader';

@Controller('v1/margins')
@UseGuards(ManagementGuard)
export class MarginsController {
  constructor(
    private readonly reader: MarginsReader,
    @Inject(CURSOR_SECRET) private readonly cursorSecret: string,
  ) {}

  @Get()
  async list(@Query() raw: RawCostQuery): Promise<MarginPage> {
    const query = parseMarginQuery(raw);
    const plan = planMarginPage(query, Math.floor(Date.now() / 1000), this.cursorSecret);
    await this.reader.catchUp();
    return buildMarginPage(plan, query.groupBy, this.reader.projection.rows(query.groupBy, plan.fromDay, plan.toDay), this.cursorSecret);
  }
}
