import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ManagementGuard } from '../../access/management.guard';
import type { BudgetView } from '../budget-view';
import { GetOrganizationBudgetQuery } from './get-organization-budget.query';

@Controller('v1/organizations/:id/budget')
@UseGuards(ManagementGuard)
export class GetOrganizationBudgetController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  get(@Param('id') id: string): Promise<BudgetView> {
    return this.queryBus.execute(new GetOrganizationBudgetQuery(id));
  }
}
