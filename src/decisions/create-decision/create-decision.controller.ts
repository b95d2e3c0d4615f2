import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { KeyGuard } from '../../access/key.guard';
import { Ctx, RequestContext } from '../../common/request-context';
import type { DecisionResponse } from '../domain/decision.types';
import { CreateDecisionCommand } from './create-decision.command';
import { CreateDecisionRequestDto } from './create-decision.request.dto';
import { DecisionRequestSizeGuard } from './request-size.guard';

@Controller('v1/decisions')
@UseGuards(KeyGuard, DecisionRequestSizeGuard)
export class CreateDecisionController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @HttpCode(200)
  create(@Ctx() ctx: RequestContext, @Body() body: CreateDecisionRequestDto): Promise<DecisionResponse> {
    return this.commandBus.execute(new CreateDecisionCommand(ctx, body));
  }
}
