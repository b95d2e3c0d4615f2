import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { GatewayLog } from '../../common/gateway-log';
import { GATEWAY_LOG } from '../../common/runtime-tokens';
import { BillingService } from '../../billing/billing.service';
import { BudgetHolds, hasLimits } from '../../budgets/budget-holds';
import { maxChatCostMicros } from '../max-chat-cost';
import type { RequestContext } from '../../common/request-context';
import { CatalogService } from '../../catalog/catalog.service';
import { MediaGate } from '../../media';
import { ModerationClient } from '../../moderation/moderation.client';
import { ModelGate } from '../../models/model-gate/model-gate';
import { UpstreamClient } from '../../upstream/upstream.client';
import { requireEventStream } from '../../upstream/answer-content-type';
import { startModeration } from '../response/answer-moderation';
import { relayChatStream } from '../stream/relay-chat-stream';
import type { ChatMessage } from '../chat.types';
import type { ChatCompletionResult } from './chat-completion.result';
import { completeChat, type ChatDependencies } from './complete-chat';
import { CreateChatCompletionCommand } from './create-chat-completion.command';
import { prepareChatRequest, type PreparedChat } from './prepare-chat-request';
import { resolveChatModel } from './resolve-chat-model';
import { holdDuring } from '../../budgets/hold-during';

@CommandHandler(CreateChatCompletionCommand)
export class CreateChatCompletionHandler implements ICommandHandler<CreateChatCompletionCommand, ChatCompletionResult> {
  private readonly deps: ChatDependencies;
  private readonly streamLog: GatewayLog;

  constructor(
    private readonly catalog: CatalogService,
    private readonly modelGate: ModelGate,
    upstream: UpstreamClient,
    billing: BillingService,
    moderation: ModerationClient,
    private readonly budgets: BudgetHolds,
    private readonly media: MediaGate,
    @Inject(GATEWAY_LOG) log: GatewayLog,
  ) {
    this.deps = { upstream, billing, moderation };
    this.streamLog = log.child({ context: 'chat-stream' });
  }

  async execute({ body, ctx }: CreateChatCompletionCommand): Promise<ChatCompletionResult> {
    const model = resolveChatModel(this.catalog, body.model, (id) => this.modelGate.inFlightOf(id));
    const prepared = await prepareChatRequest(body, model, ctx.caller.organizationId, new Date(), this.media.forRequest(ctx));
    if (!hasLimits(ctx.caller)) return this.answer(prepared, ctx);
    return this.answerWithinBudget(prepared, ctx);
  }

  /**
   * Holds the request's maximum cost against the caller's limits before the upstream is called; its
   * charge settles the hold, and any way of ending without a charge releases it.
   */
  private async answerWithinBudget(prepared: PreparedChat, ctx: RequestContext): Promise<ChatCompletionResult> {
    const { model, reportLimits: limits, media, webSearchRequested } = prepared;
    // A stream's hold is released once it ended, unless its charge settled it.
    const streamEnded = () => this.budgets.release(ctx, 'stream_not_charged');
    return holdDuring(this.budgets, ctx, maxChatCostMicros({ model, limits, media, webSearchRequested }), () => this.answer(prepared, ctx, streamEnded));
  }

  private async answer(prepared: PreparedChat, ctx: RequestContext, streamEnded?: () => Promise<void>): Promise<ChatCompletionResult> {
    const { model } = prepared;
    const release = this.modelGate.enter(model, ctx.caller.organizationId);
    const moderation = startModeration(this.deps.moderation, model, prepared.upstreamBody.messages as ChatMessage[], ctx.signal);
    if (!prepared.stream) {
      try {
        return { kind: 'completion', body: await completeChat(this.deps, prepared, ctx, moderation) };
      } finally {
        release();
      }
    }
    try {
      const response = await this.deps.upstream.send(model, { path: '/chat/completions', json: prepared.upstreamBody, signal: ctx.signal, ctx });
      requireEventStream(response, model);
      return { kind: 'stream', events: relayChatStream({ deps: this.deps, prepared, ctx, response, moderation, release, ended: streamEnded, now: () => new Date(), log: this.streamLog }) };
    } catch (error) {
      release();
      throw error;
    }
  }
}
