import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BillingService } from '../../billing/billing.service';
import { CatalogService } from '../../catalog/catalog.service';
import { ModerationClient } from '../../moderation/moderation.client';
import { ModelGate } from '../../upstream/model-gate';
import { UpstreamClient } from '../../upstream/upstream.client';
import { requireEventStream } from '../../upstream/answer-content-type';
import { startModeration } from '../response/answer-moderation';
import { relayChatStream } from '../stream/relay-chat-stream';
import type { ChatMessage } from '../chat.types';
import type { ChatCompletionResult } from './chat-completion.result';
import { completeChat, type ChatDependencies } from './complete-chat';
import { CreateChatCompletionCommand } from './create-chat-completion.command';
import { prepareChatRequest } from './prepare-chat-request';
import { resolveChatModel } from './resolve-chat-model';

@CommandHandler(CreateChatCompletionCommand)
export class CreateChatCompletionHandler implements ICommandHandler<CreateChatCompletionCommand, ChatCompletionResult> {
  private readonly deps: ChatDependencies;

  constructor(
    private readonly catalog: CatalogService,
    private readonly modelGate: ModelGate,
    upstream: UpstreamClient,
    billing: BillingService,
    moderation: ModerationClient,
  ) {
    this.deps = { upstream, billing, moderation };
  }

  async execute({ body, ctx }: CreateChatCompletionCommand): Promise<ChatCompletionResult> {
    const model = resolveChatModel(this.catalog, body.model, (id) => this.modelGate.inFlightOf(id));
    const prepared = await prepareChatRequest(body, model, ctx.caller.organizationId, new Date());
    const release = this.modelGate.enter(model);
    const moderation = startModeration(this.deps.moderation, model, prepared.upstreamBody.messages as ChatMessage[], ctx.signal);
    if (!prepared.stream) {
      try {
        return { kind: 'completion', body: await completeChat(this.deps, prepared, ctx, moderation) };
      } finally {
        release();
      }
    }
    try {
      const response = await this.deps.upstream.send(model, { path: '/chat/completions', json: prepared.upstreamBody, signal: ctx.signal });
      requireEventStream(response, model);
      return { kind: 'stream', events: relayChatStream({ deps: this.deps, prepared, ctx, response, moderation, release, now: () => new Date() }) };
    } catch (error) {
      release();
      throw error;
    }
  }
}
