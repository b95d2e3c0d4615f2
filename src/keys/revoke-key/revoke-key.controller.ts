import { Controller, Delete, Param, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ManagementCaller, ManagementGuard } from '../../access/management.guard';
import type { ManagementKeyRecord } from '../../access/access.types';
import type { KeyView } from '../key-view';
import { RevokeKeyCommand } from './revoke-key.command';

@Controller('v1/keys/:id')
@UseGuards(ManagementGuard)
export class RevokeKeyController {
  constructor(private readonly commandBus: CommandBus) {}

  @Delete()
  revoke(@Param('id') id: string, @ManagementCaller() caller: ManagementKeyRecord): Promise<KeyView> {
    return this.commandBus.execute(new RevokeKeyCommand(id, caller.id));
  }
}
