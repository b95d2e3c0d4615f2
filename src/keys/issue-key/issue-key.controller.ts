import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ManagementCaller, ManagementGuard } from '../../access/management.guard';
import type { ManagementKeyRecord } from '../../access/access.types';
import { IssueKeyCommand } from './issue-key.command';
import type { IssuedKeyView } from './issue-key.handler';
import { IssueKeyRequestDto } from './issue-key.request.dto';

@Controller('v1/keys')
@UseGuards(ManagementGuard)
export class IssueKeyController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @HttpCode(201)
  issue(@Body() body: IssueKeyRequestDto, @ManagementCaller() caller: ManagementKeyRecord): Promise<IssuedKeyView> {
    return this.commandBus.execute(new IssueKeyCommand(body, caller.id));
  }
}
