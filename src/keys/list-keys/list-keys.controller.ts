import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ManagementGuard } from '../../access/management.guard';
import { ListKeysQuery } from './list-keys.query';
import type { KeyPage } from './list-keys.handler';
import { DEFAULT_KEY_PAGE_SIZE, ListKeysRequestDto } from './list-keys.request.dto';

@Controller('v1/keys')
@UseGuards(ManagementGuard)
export class ListKeysController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  list(@Query() query: ListKeysRequestDto): Promise<KeyPage> {
    return this.queryBus.execute(new ListKeysQuery(query.limit ?? DEFAULT_KEY_PAGE_SIZE, query.offset ?? 0));
  }
}
