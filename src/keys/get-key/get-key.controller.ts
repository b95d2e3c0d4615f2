import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ManagementGuard } from '../../access/management.guard';
import type { KeyView } from '../key-view';
import { GetKeyQuery } from './get-key.query';

@Controller('v1/keys/:id')
@UseGuards(ManagementGuard)
export class GetKeyController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  get(@Param('id') id: string): Promise<KeyView> {
    return this.queryBus.execute(new GetKeyQuery(id));
  }
}
