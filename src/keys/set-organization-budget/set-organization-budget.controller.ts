import { Body, Controller, Param, Put, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ManagementCaller, ManagementGuard } from '../../access/management.guard';
import type { ManagementKeyRecord } from '../../access/access.types';
import type { BudgetView } from '../budget-view';
import { SetOrganizationBudgetCommand } from './set-organization-budget.command';
import { SetOrganizationBudgetRequestDto } from './set-organization-budget.request.dto';

@Controller('v1/organizations/:id/budget')
@UseGuards(ManagementGuard)
export class SetOrganizationBudgetController {
  constructor(private readonly commandBus: CommandBus) {}

  @Put()
  set(@Param('id') id: string, @Body() body: SetOrganizationBudgetRequestDto, @ManagementCaller() caller: ManagementKeyRecord): Promise<BudgetView> {
    return this.commandBus.execute(new SetOrganizationBudgetCommand(id, body, caller.id));
  }
}
