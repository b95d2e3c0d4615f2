// Plans the request, prepares any reference audio, calls the speech upstream and bills what it
// produced. Buffered answers are billed before they are sent; streams bill themselves as they end,
// for the input of the segments sent upstream and as delivered (a failed append is then spooled).
// Output audio is billed at most at the input's bound (output-bounds.ts), so a caller with spend
// limits can first hold the most the request can cost; the charge settles it, a failure releases it.
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { GatewayLog } from '../../common/gateway-log';
import { GATEWAY_LOG } from '../../common/runtime-tokens';
import { BillingService, type ChargeInput } from '../../billing/billing.service';
import { BudgetHolds, hasLimits } from '../../budgets/budget-holds';
import { maxSpeechCostMicros } from '../domain/max-speech-cost';
import { boundSpeechSeconds, maxSpeechSeconds } from '../../billing/metering/output-bounds';
import type { Usage } from '../../billing/usage';
import { CatalogService } from '../../catalog/catalog.service';
import { ApiError } from '../../common/api-error';
import { UpstreamClient } from '../../upstream/upstream.client';
import { ModelGate } from '../../models/model-gate/model-gate';
import { referenceCacheSalt } from '../domain/cache-salt';
import { SPEECH_CONTENT_TYPES, SSE_CONTENT_TYPE } from '../domain/speech-formats';
import { characterCount, speechMeasurement } from '../domain/speech-measurement';
import { planSpeech, type SpeechPlan } from '../domain/speech-plan';
import { streamMeterFor } from '../domain/streamed-audio';
import { upstreamSpeechBody } from '../domain/upstream-speech-body';
import { finishJoined, measureSpeech, type FinishedSpeech } from './buffered-audio';
import { CreateSpeechCommand } from './create-speech.command';
import { MediaGate } from '../../media';
import { prepareReference, type PreparedReference } from './reference-audio';
import type { SpeechResponse } from './speech-response';
import { speechStream } from './speech-stream';
import { openSpeechUpstream, type UpstreamAudio } from './speech-upstream';
import { collectBounded } from '../../upstream/bounded-body';
import { holdDuring } from '../../budgets/hold-during';

export const SPEECH_ENDPOINT = '/v1/audio/speech';

interface StreamBilling {
  outputSeconds: string;
  /** Streams only: characters of the segments sent (a buffered answer is billed once all were). */
  sentCharacters?: number;
  delivered?: boolean;
}

@CommandHandler(CreateSpeechCommand)
export class CreateSpeechHandler implements ICommandHandler<CreateSpeechCommand, SpeechResponse> {
  private readonly streamLog: GatewayLog;

  constructor(
    private readonly catalog: CatalogService,
    private readonly upstream: UpstreamClient,
    private readonly modelGate: ModelGate,
    private readonly billing: BillingService,
    private readonly budgets: BudgetHolds,
    private readonly media: MediaGate,
    @Inject(GATEWAY_LOG) log: GatewayLog,
  ) {
    this.streamLog = log.child({ context: 'speech-stream' });
  }

  async execute(command: CreateSpeechCommand): Promise<SpeechResponse> {
    const { ctx, request } = command;
    const members = this.catalog.membersOf(request.model);
    if (members.length === 0) throw ApiError.notFound('model_not_found', `The model '${request.model}' does not exist.`, 'model');
    const plan = planSpeech(members, request);
    const reference = request.ref_audio ? await prepareReference(request.ref_audio, plan.model, this.media.forRequest(ctx)) : null;
    if (!hasLimits(ctx.caller)) return this.speak(command, plan, reference);
    const work = { input: request.input, clone: plan.clone, design: plan.design, referenceSeconds: reference?.durationSeconds ?? null };
    return holdDuring(this.budgets, ctx, maxSpeechCostMicros(plan.model, work, speedOf(command)), () => this.speak(command, plan, reference));
  }

  private async speak(command: CreateSpeechCommand, plan: SpeechPlan, reference: PreparedReference | null): Promise<SpeechResponse> {
    const { ctx, request } = command;
    const sentReference = reference && { dataUrl: reference.dataUrl, cacheSalt: referenceCacheSalt(ctx.caller.organizationId, reference.bytes) };
    const json = upstreamSpeechBody(request, plan, sentReference);
    const meter = plan.delivery === 'buffered' ? null : streamMeterFor(plan);

    const release = this.modelGate.enter(plan.model, ctx.caller.organizationId);
    let streaming = false;
    try {
      const audio = await openSpeechUpstream(this.upstream, plan, json, request.input, ctx.signal, ctx);
      if (!meter) return await this.buffered(audio, plan, (seconds) => this.bill(command, plan, reference, { outputSeconds: seconds }));
      streaming = true;
      const bill = (seconds: string) => this.billStream(command, plan, reference, { outputSeconds: seconds, sentCharacters: audio.sentCharacters(), delivered: true });
      const sse = plan.delivery === 'sse';
      const pending = (seconds: string) => this.billing.pendingCharge(this.chargeInput(command, plan, reference, { outputSeconds: seconds, sentCharacters: audio.sentCharacters(), delivered: true }));
      const progress = { tracker: this.billing.streamProgress(ctx.requestId), pending };
      const body = speechStream({ upstream: audio.body, meter, sse, bill, release, requestId: ctx.requestId, correlationId: ctx.correlationId, traceId: ctx.traceId, progress, log: this.streamLog });
      return { contentType: sse ? SSE_CONTENT_TYPE : SPEECH_CONTENT_TYPES[plan.format ?? 'wav'], body };
    } finally {
      if (!streaming) release();
    }
  }

  private async buffered(audio: UpstreamAudio, plan: SpeechPlan, bill: (seconds: string) => Promise<Usage>): Promise<SpeechResponse> {
    const received = await collectBounded(audio.body, plan.model.id, this.upstream.limits.maxBodyBytes);
    const finished: FinishedSpeech = audio.joined ? await finishJoined(received, audio.joined, plan.format) : { bytes: received, format: plan.format };
    const measured = await measureSpeech(finished, plan.model);
    await bill(measured.seconds);
    return { contentType: SPEECH_CONTENT_TYPES[measured.format], body: finished.bytes };
  }

  /** A stream's charge settles its hold; a stream whose charge was not recorded releases it. */
  private async billStream(command: CreateSpeechCommand, plan: SpeechPlan, reference: PreparedReference | null, billed: StreamBilling): Promise<Usage> {
    if (!hasLimits(command.ctx.caller)) return this.bill(command, plan, reference, billed);
    try {
      return await this.bill(command, plan, reference, billed);
    } finally {
      await this.budgets.release(command.ctx, 'stream_not_charged');
    }
  }

  private bill(command: CreateSpeechCommand, plan: SpeechPlan, reference: PreparedReference | null, billed: StreamBilling): Promise<Usage> {
    return this.billing.charge(this.chargeInput(command, plan, reference, billed));
  }

  private chargeInput(command: CreateSpeechCommand, plan: SpeechPlan, reference: PreparedReference | null, billed: StreamBilling): ChargeInput {
    const { sentCharacters, delivered } = billed;
    const input = command.request.input;
    // Audio beyond what the characters billed could take to speak is billed at that bound, disputed.
    const bound = maxSpeechSeconds(sentCharacters ?? characterCount(input), speedOf(command));
    const { billed: outputSeconds, dispute } = boundSpeechSeconds(billed.outputSeconds, bound);
    const measurement = speechMeasurement({
      input,
      sentCharacters,
      clone: plan.clone,
      design: plan.design,
      referenceSeconds: reference?.durationSeconds ?? null,
      outputSeconds,
    });
    const disputes = dispute === null ? undefined : [dispute];
    return { ctx: command.ctx, model: plan.model, endpoint: SPEECH_ENDPOINT, measurement, delivered, disputes };
  }
}

/** The speed the upstream was asked for (1 when not sent); slower speech is longer. */
function speedOf({ request }: CreateSpeechCommand): number {
  return request.speed ?? 1;
}
