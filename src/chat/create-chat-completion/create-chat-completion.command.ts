import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../common/request-context';
import type { ChatRequestBody } from '../chat.types';
import type { ChatCompletionResult } from './chat-completion.result';

export class CreateChatCompletionCommand extends Command<ChatCompletionResult> {
  constructor(
    readonly body: ChatRequestBody,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}
