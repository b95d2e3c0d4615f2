import type { RequestContext } from '../../common/request-context';
import type { CreateSpeechRequestDto } from './create-speech.request.dto';

export class CreateSpeechCommand {
  constructor(
    readonly ctx: RequestContext,
    readonly request: CreateSpeechRequestDto,
  ) {}
}
