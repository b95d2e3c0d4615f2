// GET /v1/key: a model key's own limit, usage in the current window, remaining, rate limit and expiry
// (OpenRouter's GET /api/v1/key). Authenticated like every model endpoint, so a revoked key gets 401.
import { Controller, Get, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { KeyGuard } from '../../access/key.guard';
import { Ctx, RequestContext } from '../../common/request-context';
import type { KeyView } from '../key-view';
import { GetKeyQuery } from '../get-key/get-key.query';

@Controller('v1/key')
@UseGuards(KeyGuard)
export class GetCurrentKeyController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  current(@Ctx() ctx: RequestContext): Promise<KeyView> {
    return this.queryBus.execute(new GetKeyQuery(ctx.caller.keyId));
  }
}
