// Plans the request, prepares any reference audio, calls the speech upstream and bills what it
// produced. Buffered answers are billed before they are sent; streams bill themselves as they end,
// for the input of the segments sent upstream and as delivered (a failed append is then spooled).
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BillingService } from '../../billing/billing.service';
import type { Usage } from '../../billing/usage';
import { CatalogService } from '../../catalog/catalog.service';
import { ApiError } from '../../common/api-error';
import { UpstreamClient } from '../../upstream/upstream.client';
import { ModelGate } from '../../upstream/model-gate';
import { referenceCacheSalt } from '../domain/cache-salt';
import { SPEECH_CONTENT_TYPES, SSE_CONTENT_TYPE } from '../domain/speech-formats';
import { speechMeasurement } from '../domain/speech-measurement';
import { planSpeech, type SpeechPlan } from '../domain/speech-plan';
import { streamMeterFor } from '../domain/streamed-audio';
import { upstreamSpeechBody } from '../domain/upstream-speech-body';
import { finishJoined, measureSpeech, type FinishedSpeech } from './buffered-audio';
import { CreateSpeechCommand } from './create-speech.command';
import { prepareReference, type PreparedReference } from './reference-audio';
import type { SpeechResponse } from './speech-response';
import { speechStream } from './speech-stream';
import { openSpeechUpstream, type UpstreamAudio } from './speech-upstream';
import { collectBounded } from '../../upstream/bounded-body';

export const SPEECH_ENDPOINT = '/v1/audio/speech';

interface StreamBilling {
  outputSeconds: string;
  /** Streams only: characters of the segments sent (a buffered answer is billed once all were). */
  sentCharacters?: number;
  delivered?: boolean;
}

@CommandHandler(CreateSpeechCommand)
export class CreateSpeechHandler implements ICommandHandler<CreateSpeechCommand, SpeechResponse> {
  constructor(
    private readonly catalog: CatalogService,
    private readonly upstream: UpstreamClient,
    private readonly modelGate: ModelGate,
    private readonly billing: BillingService,
  ) {}

  async execute(command: CreateSpeechCommand): Promise<SpeechResponse> {
    const { ctx, request } = command;
    const members = this.catalog.membersOf(request.model);
    if (members.length === 0) throw ApiError.notFound('model_not_found', `The model '${request.model}' does not exist.`, 'model');
    const plan = planSpeech(members, request);
    const reference = request.ref_audio ? await prepareReference(request.ref_audio, plan.model) : null;
    const sentReference = reference && { dataUrl: reference.dataUrl, cacheSalt: referenceCacheSalt(ctx.caller.organizationId, reference.bytes) };
    const json = upstreamSpeechBody(request, plan, sentReference);
    const meter = plan.delivery === 'buffered' ? null : streamMeterFor(plan);

    const release = this.modelGate.enter(plan.model);
    let streaming = false;
    try {
      const audio = await openSpeechUpstream(this.upstream, plan, json, request.input, ctx.signal);
      if (!meter) return await this.buffered(audio, plan, (seconds) => this.bill(command, plan, reference, { outputSeconds: seconds }));
      streaming = true;
      const bill = (seconds: string) => this.bill(command, plan, reference, { outputSeconds: seconds, sentCharacters: audio.sentCharacters(), delivered: true });
      const sse = plan.delivery === 'sse';
      const body = speechStream({ upstream: audio.body, meter, sse, bill, release, requestId: ctx.requestId, correlationId: ctx.correlationId });
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

  private bill(command: CreateSpeechCommand, plan: SpeechPlan, reference: PreparedReference | null, billed: StreamBilling): Promise<Usage> {
    const { outputSeconds, sentCharacters, delivered } = billed;
    const measurement = speechMeasurement({
      input: command.request.input,
      sentCharacters,
      clone: plan.clone,
      design: plan.design,
      referenceSeconds: reference?.durationSeconds ?? null,
      outputSeconds,
    });
    return this.billing.charge({ ctx: command.ctx, model: plan.model, endpoint: SPEECH_ENDPOINT, measurement, delivered });
  }
}
