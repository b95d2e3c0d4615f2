import { Body, Controller, Get, Param, Put, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ManagementCaller, ManagementGuard } from '../../access/management.guard';
import type { ManagementKeyRecord } from '../../access/access.types';
import { KeysContext } from '../keys.context';
import { organizationNotFound } from '../set-organization-budget/set-organization-budget.handler';
import { SetOrganizationUsageFormatCommand } from './set-organization-usage-format.command';
import { SetOrganizationUsageFormatRequestDto } from './set-organization-usage-format.request.dto';
import { usageFormatView, type UsageFormatView } from './usage-format-view';

@Controller('v1/organizations/:id/usage-format')
@UseGuards(ManagementGuard)
export class SetOrganizationUsageFormatController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly keys: KeysContext,
  ) {}

  @Put()
  set(@Param('id') id: string, @Body() body: SetOrganizationUsageFormatRequestDto, @ManagementCaller() caller: ManagementKeyRecord): Promise<UsageFormatView> {
    return this.commandBus.execute(new SetOrganizationUsageFormatCommand(id, body, caller.id));
  }

  /** What this replica enforces: the folded event, else the configuration. */
  @Get()
  get(@Param('id') id: string): UsageFormatView {
    const organization = this.keys.config.organizations.find((o) => o.id === id);
    if (!organization) throw organizationNotFound(id);
    return usageFormatView(organization, this.keys.registry.usageFormat(id));
  }
}
