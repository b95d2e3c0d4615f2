import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { VoiceList } from '../domain/voice-list';
import { ListVoicesQuery } from './list-voices.query';
import { ListVoicesRequestDto } from './list-voices.request.dto';

/** Unkeyed, like the model listing: voices are public catalog facts. */
@Controller('v1/audio/voices')
export class ListVoicesController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  list(@Query() query: ListVoicesRequestDto): Promise<VoiceList> {
    return this.queryBus.execute(new ListVoicesQuery(query.model));
  }
}
