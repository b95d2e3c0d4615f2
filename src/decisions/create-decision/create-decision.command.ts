import type { RequestContext } from '../../common/request-context';
import type { CreateDecisionRequestDto } from './create-decision.request.dto';

export class CreateDecisionCommand {
  constructor(
    readonly ctx: RequestContext,
    readonly request: CreateDecisionRequestDto,
  ) {}
}
