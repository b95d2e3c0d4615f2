import { Body, Controller, Param, Patch, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ManagementCaller, ManagementGuard } from '../../access/management.guard';
import type { ManagementKeyRecord } from '../../access/access.types';
import type { KeyView } from '../key-view';
import { ChangeKeyCommand } from './change-key.command';
import { ChangeKeyRequestDto } from './change-key.request.dto';

@Controller('v1/keys/:id')
@UseGuards(ManagementGuard)
export class ChangeKeyController {
  constructor(private readonly commandBus: CommandBus) {}

  @Patch()
  change(@Param('id') id: string, @Body() body: ChangeKeyRequestDto, @ManagementCaller() caller: ManagementKeyRecord): Promise<KeyView> {
    return this.commandBus.execute(new ChangeKeyCommand(id, body, caller.id));
  }
}
