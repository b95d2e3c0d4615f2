// Answers a decisions request: rules and evidence first (nothing billed when they refuse it), then
// the decision model, whose answers are checked before the gateway derives scores and bills.
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BillingService } from '../../billing/billing.service';
import { BudgetHolds, hasLimits } from '../../budgets/budget-holds';
import { maxChatCostMicros } from '../../chat/max-chat-cost';
import type { RequestContext } from '../../common/request-context';
import type { Measurement } from '../../billing/metering/measurement';
import { CatalogService } from '../../catalog/catalog.service';
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import { MediaGate } from '../../media';
import { ModelGate } from '../../models/model-gate/model-gate';
import { UpstreamClient } from '../../upstream/upstream.client';
import { checkUpstreamDecision, UpstreamTokenUsage } from '../domain/answer-check';
import type { DecisionQuestion, DecisionResponse } from '../domain/decision.types';
import { inputImages } from '../domain/decision-input';
import { decisionUsage } from '../domain/decision-usage';
import { decisionWireBody } from '../domain/decision-wire';
import { assertQuestionRules } from '../domain/question-rules';
import { CreateDecisionCommand } from './create-decision.command';
import { DecisionEvidence, gatherEvidence } from './decision-evidence';
import { holdDuring } from '../../budgets/hold-during';

export const DECISIONS_ENDPOINT = '/v1/decisions';

/** Everything decided before the model is asked (rules, evidence, the wire body). */
interface PreparedDecision {
  requestedModel: string;
  model: CatalogModel;
  questions: DecisionQuestion[];
  wireBody: unknown;
  evidence: DecisionEvidence;
  carriesMedia: boolean;
}

@CommandHandler(CreateDecisionCommand)
export class CreateDecisionHandler implements ICommandHandler<CreateDecisionCommand, DecisionResponse> {
  constructor(
    private readonly catalog: CatalogService,
    private readonly modelGate: ModelGate,
    private readonly upstream: UpstreamClient,
    private readonly billing: BillingService,
    private readonly budgets: BudgetHolds,
    private readonly media: MediaGate,
  ) {}

  async execute({ ctx, request }: CreateDecisionCommand): Promise<DecisionResponse> {
    const model = this.catalog.requireKind(request.model, 'decision');
    const questions = request.questions as DecisionQuestion[];
    assertQuestionRules(questions);
    const images = inputImages(request.input, imageAllowance(model));
    const evidence = await gatherEvidence(model, images, request.input_audio, this.media.forRequest(ctx));
    // Web images go in their normalized form (image-url.ts), never as the client spelled them.
    const replacedImages = [...images.filter((image) => image.kind === 'https'), ...evidence.convertedImages];
    const wireBody = decisionWireBody({ ...request, questions }, model.upstream.model ?? model.id, { ...evidence, convertedImages: replacedImages });
    const carriesMedia = images.length > 0 || request.input_audio !== undefined;
    const prepared: PreparedDecision = { requestedModel: request.model, model, questions, wireBody, evidence, carriesMedia };
    if (!hasLimits(ctx.caller)) return this.decide(ctx, prepared);
    // The most the answer can be charged: the context bounds the report (docs/keys-and-budgets.md).
    const limits = { contextLength: model.top_provider.context_length ?? model.context_length ?? null };
    const maxCost = maxChatCostMicros({ model, limits, media: { images: evidence.images, audio: evidence.audio }, webSearchRequested: false });
    return holdDuring(this.budgets, ctx, maxCost, () => this.decide(ctx, prepared));
  }

  private async decide(ctx: RequestContext, { requestedModel, model, questions, wireBody, evidence, carriesMedia }: PreparedDecision): Promise<DecisionResponse> {
    const checked = checkUpstreamDecision(questions, await this.ask(model, wireBody, ctx));
    const measurement = decisionMeasurement(checked.usage, evidence, model);
    // The response shows the vector that was billed, after the plausibility bounds.
    const { metered } = await this.billing.chargeMetered({ ctx, model, endpoint: DECISIONS_ENDPOINT, measurement });
    return { model: requestedModel, answers: checked.answers, usage: decisionUsage(metered, carriesMedia) };
  }

  private async ask(model: CatalogModel, json: unknown, ctx: RequestContext): Promise<unknown> {
    const release = this.modelGate.enter(model, ctx.caller.organizationId);
    try {
      const response = await this.upstream.send(model, { path: '/decisions', json, signal: ctx.signal, ctx });
      const answer = await this.upstream.readJson(model, response);
      if (answer === undefined) {
        throw ApiError.upstream('invalid_upstream_answers', `The decision model '${model.id}' answered with a body that is not JSON. Retrying may succeed.`);
      }
      return answer;
    } catch (error) {
      throw asModelFailure(model, error);
    } finally {
      release();
    }
  }
}

/** A model without an image profile takes no images; otherwise the catalog's count, if any. */
function imageAllowance(model: CatalogModel): number {
  if (!model.media_profiles?.image) return 0;
  return model.max_images_per_request ?? Number.POSITIVE_INFINITY;
}

/**
 * The request was valid when it left, so a 4xx from the model is the model's error: 502 (spec).
 * Cold starts and capacity (503) and a client that went away (499) keep their meaning.
 */
function asModelFailure(model: CatalogModel, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500 || error.status === 499) return error;
  return ApiError.upstream('upstream_error', `The decision model '${model.id}' returned an error (HTTP ${error.status}): ${error.message} Retrying may succeed.`);
}

/** Decisions send no completion cap: the context length bounds the report (docs/metering.md). */
function decisionMeasurement(usage: UpstreamTokenUsage, evidence: DecisionEvidence, model: CatalogModel): Measurement {
  return {
    reported: { promptTokens: usage.inputTokens, completionTokens: usage.outputTokens, cachedTokens: usage.cachedTokens },
    limits: { contextLength: model.top_provider.context_length ?? model.context_length ?? null },
    input: { images: evidence.images, audio: evidence.audio },
    output: {},
  };
}
