import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ListModelsQuery } from './list-models.query';
import type { ModelListing } from './list-models.handler';

@Controller('v1/models')
export class ListModelsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  list(): Promise<ModelListing> {
    return this.queryBus.execute(new ListModelsQuery());
  }
}
